#include "import/common/ByteSource.h"

#include "core/InputError.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <zlib.h>

namespace cnp {

namespace {
constexpr std::size_t kInputChunk = std::size_t(256) * 1024;

bool endsWith(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}
} // namespace

struct ByteSource::Inflater {
    z_stream z{};
    bool initialised = false;
    ~Inflater() {
        if (initialised)
            inflateEnd(&z);
    }
};

ByteSource::ByteSource(std::string path) : path_(std::move(path)) {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0)
        throw InputError(path_, std::string("cannot open: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        throw InputError(path_, "is a directory, not a trace file");
    fileSize_ = static_cast<std::int64_t>(st.st_size);
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_)
        throw InputError(path_, std::string("cannot open: ") + std::strerror(errno));

    unsigned char magic[2] = {0, 0};
    const std::size_t got = std::fread(magic, 1, 2, file_);
    gzip_ = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    std::rewind(file_);
    if (!gzip_ && fileSize_ > 0 &&
        endsWith(path_, ".gz")) { // an empty file is reported as such by the reader
        std::fclose(file_);
        file_ = nullptr;
        throw InputError(path_,
                         "named .gz but is not gzip-compressed (no gzip magic bytes 1f 8b at the start)", 0);
    }
    estimatedContent_ = fileSize_;
    if (gzip_) {
        unsigned char trailer[4] = {0, 0, 0, 0};
        if (fileSize_ >= 18 && std::fseek(file_, -4, SEEK_END) == 0 &&
            std::fread(trailer, 1, 4, file_) == 4) {
            const std::int64_t isize =
                trailer[0] | (trailer[1] << 8) | (trailer[2] << 16) | (std::int64_t{trailer[3]} << 24);
            // Deflate never expands by more than a few bytes per 64 KiB block plus 18 bytes of framing;
            // a smaller ISIZE means >= 4 GiB (wrapped) or several members: assume a typical JSON ratio.
            estimatedContent_ = isize + 64 + fileSize_ / 1000 >= fileSize_ ? isize : fileSize_ * 8;
        }
        std::rewind(file_);
        inflater_ = std::make_unique<Inflater>();
        input_.resize(kInputChunk);
        // 15 + 16: a 32 KiB window, gzip wrapper only (a bare zlib or raw deflate stream is refused).
        if (inflateInit2(&inflater_->z, 15 + 16) != Z_OK) {
            std::fclose(file_);
            file_ = nullptr;
            throw InputError(path_, "cannot initialise zlib");
        }
        inflater_->initialised = true;
    }
}

ByteSource::~ByteSource() {
    if (file_)
        std::fclose(file_);
}

std::size_t ByteSource::read(char* out, std::size_t capacity) {
    const std::size_t n = gzip_ ? readInflated(out, capacity) : readRaw(out, capacity);
    contentRead_ += static_cast<std::int64_t>(n);
    return n;
}

std::size_t ByteSource::readRaw(char* out, std::size_t capacity) {
    const std::size_t n = std::fread(out, 1, capacity, file_);
    if (n < capacity && std::ferror(file_))
        throw InputError(path_, std::string("read error: ") + std::strerror(errno), fileConsumed_);
    fileConsumed_ += static_cast<std::int64_t>(n);
    return n;
}

bool ByteSource::refillInput() {
    if (inputExhausted_)
        return false;
    const std::size_t n = std::fread(input_.data(), 1, input_.size(), file_);
    if (n < input_.size()) {
        if (std::ferror(file_))
            throw InputError(path_, std::string("read error: ") + std::strerror(errno), fileConsumed_);
        inputExhausted_ = true;
    }
    fileConsumed_ += static_cast<std::int64_t>(n);
    inflater_->z.next_in = input_.data();
    inflater_->z.avail_in = static_cast<uInt>(n);
    return n > 0;
}

std::size_t ByteSource::readInflated(char* out, std::size_t capacity) {
    z_stream& z = inflater_->z;
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(capacity);
    while (z.avail_out > 0) {
        if (streamEnded_) {
            // Another gzip member may follow (concatenated .gz files are one stream).
            if (z.avail_in == 0 && !refillInput())
                break;
            if (z.next_in[0] != 0x1f) {
                const auto offset = fileConsumed_ - static_cast<std::int64_t>(z.avail_in);
                throw InputError(path_, "unexpected data after the end of the gzip stream", offset);
            }
            inflateReset(&z);
            streamEnded_ = false;
        }
        if (z.avail_in == 0 && !refillInput())
            throw InputError(path_, "truncated gzip stream (the file ends before the gzip trailer)",
                             fileConsumed_);
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            streamEnded_ = true;
            continue;
        }
        if (rc == Z_BUF_ERROR)
            continue; // needs more input; refilled above
        if (rc != Z_OK) {
            const auto offset = fileConsumed_ - static_cast<std::int64_t>(z.avail_in);
            throw InputError(path_, std::string("corrupt gzip data: ") + (z.msg ? z.msg : "inflate failed"),
                             offset);
        }
    }
    return capacity - z.avail_out;
}

std::string ByteSource::readHead(const std::string& path, std::size_t n) {
    ByteSource src(path);
    std::string head(n, '\0');
    std::size_t got = 0;
    try {
        while (got < n) {
            // Small steps, so a stream that breaks later still yields the bytes before the break.
            const std::size_t k = src.read(head.data() + got, std::min<std::size_t>(n - got, 512));
            if (k == 0)
                break;
            got += k;
        }
    } catch (const InputError&) {
        // A damaged stream still has a head worth sniffing; the importer reports the damage.
    }
    head.resize(got);
    return head;
}

} // namespace cnp
