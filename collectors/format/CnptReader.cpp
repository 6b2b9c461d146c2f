#include "CnptReader.h"

#include "Crc32.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cnpt {

namespace {

std::uint32_t getU32(const char* d, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, d + at, 4);
    return v;
}

// Reads a u32-length-prefixed string at `at` within [at, end); false if it would run past `end`.
bool getString(const char* d, std::size_t& at, std::size_t end, std::string& out) {
    if (at + 4 > end)
        return false;
    const std::uint32_t n = getU32(d, at);
    if (n > end - at - 4)
        return false;
    out.assign(d + at + 4, n);
    at += 4 + n;
    return true;
}

} // namespace

CnptReader::CnptReader(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw FormatError(std::string("cannot open (") + std::strerror(errno) + ")", -1);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        throw FormatError(std::string("cannot stat (") + std::strerror(e) + ")", -1);
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
        void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED) {
            mapping_ = m;
            data_ = static_cast<const char*>(m);
        } else { // not mappable (a pipe, a special file): read it
            char buf[1 << 16];
            for (;;) {
                const ssize_t n = ::read(fd, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    break;
                owned_.append(buf, static_cast<std::size_t>(n));
            }
            data_ = owned_.data();
            size_ = owned_.size();
        }
    }
    ::close(fd);
    parse();
}

CnptReader::~CnptReader() {
    if (mapping_)
        ::munmap(mapping_, size_);
}

CnptReader::CnptReader(CnptReader&& o) noexcept
    : data_(o.data_), size_(o.size_), mapping_(o.mapping_), owned_(std::move(o.owned_)),
      header_(std::move(o.header_)), strings_(std::move(o.strings_)), eventSpans_(std::move(o.eventSpans_)),
      cleanEnd_(o.cleanEnd_), stopOffset_(o.stopOffset_), stopReason_(std::move(o.stopReason_)),
      chunks_(o.chunks_), badRecords_(o.badRecords_) {
    if (!mapping_)
        data_ = owned_.data();
    o.mapping_ = nullptr;
    o.data_ = nullptr;
    o.size_ = 0;
}

CnptReader CnptReader::fromBytes(std::string bytes) {
    CnptReader r;
    r.owned_ = std::move(bytes);
    r.data_ = r.owned_.data();
    r.size_ = r.owned_.size();
    r.parse();
    return r;
}

std::string CnptReader::headerValue(std::string_view key, std::string_view fallback) const {
    for (auto it = header_.rbegin(); it != header_.rend(); ++it)
        if (it->first == key)
            return it->second;
    return std::string(fallback);
}

void CnptReader::parse() {
    if (size_ < sizeof kMagic || std::memcmp(data_, kMagic, sizeof kMagic) != 0)
        throw FormatError("not a .cnpt file (bad magic)", 0);
    strings_.assign(1, std::string());
    std::size_t p = sizeof kMagic;
    auto stop = [&](const char* why) {
        stopOffset_ = static_cast<std::int64_t>(p);
        stopReason_ = why;
    };
    while (p < size_) {
        if (size_ - p < 12) {
            stop("chunk cut short");
            return;
        }
        const std::uint32_t type = getU32(data_, p);
        const std::uint32_t len = getU32(data_, p + 4);
        if (len > kMaxChunkPayload) {
            stop("chunk length out of range");
            return;
        }
        if (size_ - p - 12 < len) {
            stop("chunk cut short");
            return;
        }
        const std::uint32_t crc = getU32(data_, p + 8 + len);
        if (Crc32::of(data_ + p, 8 + len) != crc) {
            stop("CRC mismatch");
            return;
        }
        const std::size_t begin = p + 8, end = p + 8 + len;
        switch (static_cast<ChunkType>(type)) {
        case ChunkType::Header: {
            if (len < 4) {
                stop("malformed header chunk");
                return;
            }
            std::size_t at = begin + 4;
            const std::uint32_t n = getU32(data_, begin);
            for (std::uint32_t i = 0; i < n; ++i) {
                std::string k, v;
                if (!getString(data_, at, end, k) || !getString(data_, at, end, v)) {
                    stop("malformed header chunk");
                    return;
                }
                header_.emplace_back(std::move(k), std::move(v));
            }
            break;
        }
        case ChunkType::Strings: {
            if (len < 8) {
                stop("malformed string chunk");
                return;
            }
            const std::uint32_t first = getU32(data_, begin), n = getU32(data_, begin + 4);
            if (first != strings_.size()) {
                stop("string chunk out of sequence");
                return;
            }
            std::size_t at = begin + 8;
            for (std::uint32_t i = 0; i < n; ++i) {
                std::string s;
                if (!getString(data_, at, end, s)) {
                    stop("malformed string chunk");
                    return;
                }
                strings_.push_back(std::move(s));
            }
            break;
        }
        case ChunkType::Events:
            eventSpans_.emplace_back(begin, end);
            break;
        case ChunkType::End:
            cleanEnd_ = true;
            break;
        default:
            break; // unknown chunk types of later versions are skipped whole
        }
        ++chunks_;
        p = end + 4;
    }
}

} // namespace cnpt
