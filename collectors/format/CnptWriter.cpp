#include "CnptWriter.h"

#include "Crc32.h"
#include "TraceChecksum.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cnpt {

namespace {

void putU32(std::string& out, std::uint32_t v) {
    out.append(reinterpret_cast<const char*>(&v), 4);
}

void putString(std::string& out, std::string_view s) {
    putU32(out, static_cast<std::uint32_t>(s.size()));
    out.append(s.data(), s.size());
}

// write() until done or a real error; retries EINTR and short writes.
bool writeAll(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

} // namespace

CnptWriter::~CnptWriter() {
    close();
}

bool CnptWriter::open(const std::string& path) {
    path_ = path;
    // Never written through what someone planted at the name (issue 33: `cnp synth --out DIR` followed a
    // symlink in DIR): O_NOFOLLOW refuses a symlink, O_NONBLOCK keeps a FIFO from blocking the open, and
    // only a regular file is truncated and written.
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd_ < 0) {
        error_ = path + (errno == ELOOP ? std::string(": is a symbolic link; refusing to write through it")
                         : errno == ENXIO // a FIFO no one reads (opened O_NONBLOCK, so it never blocks)
                             ? std::string(": exists and is not a regular file; refusing to write to it")
                             : ": cannot create (" + std::string(std::strerror(errno)) + ")");
        return false;
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd_);
        fd_ = -1;
        error_ = path + ": exists and is not a regular file; refusing to write to it";
        return false;
    }
    if (::ftruncate(fd_, 0) != 0 || ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK) != 0) {
        fail("cannot create");
        return false;
    }
    ::unlink((path + kChecksumSuffix).c_str()); // a stale one would vouch for bytes no longer there
    digest_ = Sha256();
    if (!writeAll(fd_, kMagic, sizeof kMagic)) {
        fail("cannot write");
        return false;
    }
    digest_.update(kMagic, sizeof kMagic);
    bytesWritten_ = sizeof kMagic;
    return true;
}

void CnptWriter::fail(const std::string& what) {
    error_ = path_ + ": " + what + " (" + std::strerror(errno) + ")";
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
}

void CnptWriter::writeChunk(ChunkType type, const std::string& payload) {
    if (fd_ < 0)
        return;
    std::string chunk;
    chunk.reserve(payload.size() + 12);
    putU32(chunk, static_cast<std::uint32_t>(type));
    putU32(chunk, static_cast<std::uint32_t>(payload.size()));
    chunk += payload;
    putU32(chunk, Crc32::of(chunk.data(), chunk.size()));
    if (!writeAll(fd_, chunk.data(), chunk.size())) {
        fail("write failed");
        return;
    }
    digest_.update(chunk.data(), chunk.size());
    bytesWritten_ += chunk.size();
    ++chunksWritten_;
}

void CnptWriter::writeHeader(const std::vector<std::pair<std::string, std::string>>& keyValues) {
    std::string payload;
    putU32(payload, static_cast<std::uint32_t>(keyValues.size()));
    for (const auto& [k, v] : keyValues) {
        putString(payload, k);
        putString(payload, v);
    }
    writeChunk(ChunkType::Header, payload);
}

std::uint32_t CnptWriter::intern(std::string_view s) {
    if (s.empty())
        return 0;
    auto it = ids_.find(s);
    if (it != ids_.end())
        return it->second;
    const std::uint32_t id = nextId_++;
    ids_.emplace(std::string(s), id);
    if (newStringCount_ == 0)
        firstNewString_ = id;
    ++newStringCount_;
    putString(newStrings_, s);
    return id;
}

void CnptWriter::appendRecord(RecordType type, const void* body, std::uint16_t size) {
    const std::uint16_t head[2] = {static_cast<std::uint16_t>(type), size};
    events_.append(reinterpret_cast<const char*>(head), sizeof head);
    events_.append(static_cast<const char*>(body), size);
    ++recordsWritten_;
    if (events_.size() >= kAutoFlushBytes)
        flush();
}

void CnptWriter::flush(bool sync) {
    if (newStringCount_ > 0) {
        std::string payload;
        payload.reserve(newStrings_.size() + 8);
        putU32(payload, firstNewString_);
        putU32(payload, newStringCount_);
        payload += newStrings_;
        writeChunk(ChunkType::Strings, payload);
        newStrings_.clear();
        newStringCount_ = 0;
    }
    if (!events_.empty()) {
        writeChunk(ChunkType::Events, events_);
        events_.clear();
    }
    if (sync && fd_ >= 0)
        ::fdatasync(fd_);
}

void CnptWriter::close() {
    if (fd_ < 0)
        return;
    flush();
    writeChunk(ChunkType::End, std::string());
    if (fd_ < 0)
        return; // a write failed: no checksum vouches for a trace that lacks bytes
    const bool closed = ::close(fd_) == 0;
    fd_ = -1;
    if (!closed) {
        error_ = path_ + ": close failed (" + std::strerror(errno) + ")";
        return;
    }
    if (!writeChecksumFile(path_, digest_.hexDigest(), bytesWritten_))
        error_ = path_ + kChecksumSuffix + ": cannot write (" + std::strerror(errno) + ")";
}

void CnptWriter::abandon() {
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
    events_.clear();
    newStrings_.clear();
    newStringCount_ = 0;
}

} // namespace cnpt
