#pragma once
// Writes a .cnpt file (format: CnptRecords.h, docs/cnpt-format.md). Plain C++ and POSIX I/O only: it runs
// inside the traced process. Not thread-safe: one writer thread owns it. A write error is remembered
// (error()) and turns every later call into a no-op, so the traced process never sees an exception.
#include "CnptRecords.h"
#include "Sha256.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cnpt {

class CnptWriter {
public:
    CnptWriter() = default;
    ~CnptWriter();
    CnptWriter(const CnptWriter&) = delete;
    CnptWriter& operator=(const CnptWriter&) = delete;

    // Creates (truncates) `path` and writes the magic. False (and error()) on failure.
    bool open(const std::string& path);
    bool isOpen() const { return fd_ >= 0; }
    const std::string& error() const { return error_; }
    const std::string& path() const { return path_; }

    // Writes one Header chunk at once. Several header chunks may appear; readers merge them, later wins.
    void writeHeader(const std::vector<std::pair<std::string, std::string>>& keyValues);

    // Interns `s`, returning its id (0 for ""). New strings are written before the next events chunk.
    // O(|s|) amortised.
    std::uint32_t intern(std::string_view s);

    // Appends one record to the pending events chunk; flushes automatically past kAutoFlushBytes.
    template <class Record> void add(RecordType type, const Record& r) {
        static_assert(sizeof(Record) < 0xFFFF);
        appendRecord(type, &r, sizeof(Record));
    }
    void appendRecord(RecordType type, const void* body, std::uint16_t size);

    // Writes pending strings then pending events as (at most) two whole chunks. Optionally fdatasync.
    void flush(bool sync = false);
    // flush() + End chunk + close, then `<path>.sha256` (TraceChecksum.h) with the size and SHA-256 of every
    // byte written; no checksum file after a write error. Idempotent.
    void close();
    // Closes the descriptor without writing anything (a forked child dropping its parent's file).
    void abandon();

    std::uint64_t bytesWritten() const { return bytesWritten_; }
    std::uint64_t recordsWritten() const { return recordsWritten_; }
    std::uint64_t chunksWritten() const { return chunksWritten_; }
    std::size_t pendingBytes() const { return events_.size(); }

    static constexpr std::size_t kAutoFlushBytes = 4u << 20;

private:
    void writeChunk(ChunkType type, const std::string& payload);
    void fail(const std::string& what);

    int fd_ = -1;
    std::string path_, error_;
    std::string events_;     // pending records
    std::string newStrings_; // pending string payload entries (u32 len + bytes each)
    std::uint32_t firstNewString_ = 1, newStringCount_ = 0;
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> ids_;
    std::uint32_t nextId_ = 1;
    std::uint64_t bytesWritten_ = 0, recordsWritten_ = 0, chunksWritten_ = 0;
    Sha256 digest_; // of the bytes written so far
};

} // namespace cnpt
