#include "CnptReader.h"

#include "Crc32.h"

#include <algorithm>
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

// Fills `out` with up to `n` bytes from `in`; returns the count (less than `n` only at the end).
std::size_t readFull(ByteInput& in, char* out, std::size_t n) {
    std::size_t got = 0;
    while (got < n) {
        const std::size_t k = in.read(out + got, n - got);
        if (k == 0)
            break;
        got += k;
    }
    return got;
}

constexpr std::size_t kChunkOverhead = 12; // type, length, CRC

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
      open_(std::move(o.open_)), header_(std::move(o.header_)), strings_(std::move(o.strings_)),
      stringBytes_(o.stringBytes_), eventSpans_(std::move(o.eventSpans_)), cleanEnd_(o.cleanEnd_),
      stopOffset_(o.stopOffset_), stopReason_(std::move(o.stopReason_)), chunks_(o.chunks_),
      badRecords_(o.badRecords_), firstBadRecord_(o.firstBadRecord_) {
    if (!mapping_ && !open_)
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

CnptReader CnptReader::fromStream(ByteInputOpener open) {
    CnptReader r;
    r.open_ = std::move(open);
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
    if (open_) {
        char magic[sizeof kMagic] = {};
        const auto in = open_();
        if (readFull(*in, magic, sizeof magic) < sizeof magic ||
            std::memcmp(magic, kMagic, sizeof kMagic) != 0)
            throw FormatError("not a .cnpt file (bad magic)", 0);
    } else if (size_ < sizeof kMagic || std::memcmp(data_, kMagic, sizeof kMagic) != 0) {
        throw FormatError("not a .cnpt file (bad magic)", 0);
    }
    strings_.assign(1, std::string());
    const ChunkVisitor visit = [&](const Chunk& c, const char*& reason) {
        switch (static_cast<ChunkType>(c.type)) {
        case ChunkType::Header:
            reason = "malformed header chunk";
            if (!parseHeader(c))
                return false;
            break;
        case ChunkType::Strings:
            if (!parseStrings(c, reason))
                return false;
            break;
        case ChunkType::Events:
            if (!open_)
                eventSpans_.emplace_back(c.offset + 8, c.offset + 8 + c.length);
            break;
        case ChunkType::End:
            cleanEnd_ = true;
            break;
        default:
            break; // unknown chunk types of later versions are skipped whole
        }
        ++chunks_;
        return true;
    };
    const Stop stop = open_ ? walkStream(visit, &size_) : walkMemory(visit);
    stopOffset_ = stop.offset;
    stopReason_ = stop.reason;
}

bool CnptReader::parseHeader(const Chunk& c) {
    if (c.length < 4)
        return false;
    std::size_t at = 4;
    const std::uint32_t n = getU32(c.payload, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        std::string k, v;
        if (!getString(c.payload, at, c.length, k) || !getString(c.payload, at, c.length, v))
            return false;
        header_.emplace_back(std::move(k), std::move(v));
    }
    return true;
}

bool CnptReader::parseStrings(const Chunk& c, const char*& reason) {
    reason = "malformed string chunk";
    if (c.length < 8)
        return false;
    const std::uint32_t first = getU32(c.payload, 0), n = getU32(c.payload, 4);
    if (first != strings_.size()) {
        reason = "string chunk out of sequence";
        return false;
    }
    std::size_t at = 8;
    for (std::uint32_t i = 0; i < n; ++i) {
        std::string s;
        if (!getString(c.payload, at, c.length, s))
            return false;
        stringBytes_ += s.size() + 32;
        if (stringBytes_ > kMaxStringTableBytes) {
            reason = "string table too large";
            return false;
        }
        strings_.push_back(std::move(s));
    }
    return true;
}

// Invariant of both walks: `p` is the offset of the next chunk; every chunk passed to `visit` has a
// payload of at most kMaxChunkPayload bytes and a matching CRC.
CnptReader::Stop CnptReader::walkMemory(const ChunkVisitor& visit) const {
    std::size_t p = sizeof kMagic;
    while (p < size_) {
        if (size_ - p < kChunkOverhead)
            return {static_cast<std::int64_t>(p), "chunk cut short"};
        const std::uint32_t type = getU32(data_, p), len = getU32(data_, p + 4);
        if (len > kMaxChunkPayload)
            return {static_cast<std::int64_t>(p), "chunk length out of range"};
        if (size_ - p - kChunkOverhead < len)
            return {static_cast<std::int64_t>(p), "chunk cut short"};
        if (Crc32::of(data_ + p, 8 + len) != getU32(data_, p + 8 + len))
            return {static_cast<std::int64_t>(p), "CRC mismatch"};
        const char* reason = "";
        if (!visit(Chunk{type, data_ + p + 8, len, p}, reason))
            return {static_cast<std::int64_t>(p), reason};
        p += kChunkOverhead + len;
    }
    return {};
}

// Like walkMemory on bytes read one chunk at a time into one buffer, reused by every pass. `totalBytes`, when
// given, receives the content size: after a stop the rest is read (not kept) to count it.
CnptReader::Stop CnptReader::walkStream(const ChunkVisitor& visit, std::size_t* totalBytes) const {
    const auto in = open_();
    std::vector<char>& buf = chunkBuffer_;
    buf.resize(std::max<std::size_t>(buf.size(), 8));
    std::size_t p = readFull(*in, buf.data(), sizeof kMagic);
    Stop stop;
    for (;;) {
        const std::size_t head = readFull(*in, buf.data(), 8);
        if (head == 0)
            break;
        if (head < 8) {
            stop = {static_cast<std::int64_t>(p), "chunk cut short"};
            p += head;
            break;
        }
        const std::uint32_t type = getU32(buf.data(), 0), len = getU32(buf.data(), 4);
        if (len > kMaxChunkPayload) {
            stop = {static_cast<std::int64_t>(p), "chunk length out of range"};
            p += head;
            break;
        }
        buf.resize(kChunkOverhead + len);
        const std::size_t body = readFull(*in, buf.data() + 8, len + 4);
        if (body < len + 4) {
            stop = {static_cast<std::int64_t>(p), "chunk cut short"};
            p += head + body;
            break;
        }
        if (Crc32::of(buf.data(), 8 + len) != getU32(buf.data(), 8 + len)) {
            stop = {static_cast<std::int64_t>(p), "CRC mismatch"};
            p += kChunkOverhead + len;
            break;
        }
        const char* reason = "";
        if (!visit(Chunk{type, buf.data() + 8, len, p}, reason)) {
            stop = {static_cast<std::int64_t>(p), reason};
            p += kChunkOverhead + len;
            break;
        }
        p += kChunkOverhead + len;
    }
    if (!totalBytes)
        return stop;
    if (stop.offset >= 0) { // count what follows the stop
        char rest[1 << 16];
        for (std::size_t n; (n = in->read(rest, sizeof rest)) > 0;)
            p += n;
    }
    *totalBytes = p;
    return stop;
}

void CnptReader::forEachEventsPayload(
    const std::function<void(const char*, std::size_t, std::size_t)>& f) const {
    if (!open_) {
        for (const auto& [begin, end] : eventSpans_)
            f(data_ + begin, end - begin, begin);
        return;
    }
    // Later passes stop where parse() stopped: the bytes are the same.
    walkStream(
        [&](const Chunk& c, const char*&) {
            if (static_cast<std::int64_t>(c.offset) == stopOffset_)
                return false;
            if (static_cast<ChunkType>(c.type) == ChunkType::Events)
                f(c.payload, c.length, c.offset + 8);
            return true;
        },
        nullptr);
}

void CnptReader::noteBadRecord(std::size_t offset) const {
    if (badRecords_++ == 0)
        firstBadRecord_ = static_cast<std::int64_t>(offset);
}

} // namespace cnpt
