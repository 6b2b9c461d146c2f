#pragma once
// Reads a .cnpt file (format: CnptRecords.h). Plain C++: used by the importer and by cnpt-dump.
// The file is mapped read-only (or, from fromBytes, held in memory), or streamed (fromStream: a
// gunzipped file is inflated once per pass, never into memory: memory is one chunk, at most
// kMaxChunkPayload, plus the string table); records are decoded on demand by forEachRecord.
// Move-only: the mapping is released by the destructor.
// A file cut short or with a corrupted chunk reads back to its last whole chunk: stopOffset()/stopReason()
// say where and why reading stopped. A file that is not .cnpt at all throws FormatError.
#include "CnptRecords.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cnpt {

class FormatError : public std::runtime_error {
public:
    FormatError(const std::string& message, std::int64_t offset)
        : std::runtime_error(message), offset_(offset) {}
    std::int64_t offset() const { return offset_; }

private:
    std::int64_t offset_;
};

// A file's bytes front to back (e.g. inflated from gzip). read() may throw; its exception passes through.
class ByteInput {
public:
    virtual ~ByteInput() = default;
    // Up to `capacity` bytes into `out`; 0 only at the end.
    virtual std::size_t read(char* out, std::size_t capacity) = 0;
};
// Opens the bytes from their beginning; called once per pass over the file.
using ByteInputOpener = std::function<std::unique_ptr<ByteInput>()>;

class CnptReader {
public:
    // The string table may hold this many bytes (each string counted with 32 bytes of overhead); a
    // larger table is corrupt or hostile and ends reading ("string table too large").
    static constexpr std::size_t kMaxStringTableBytes = 256u << 20;

    // Reads `path`. Throws FormatError when it cannot be read or does not start with the magic.
    explicit CnptReader(const std::string& path);
    // Parses bytes already in memory (tests). Same checks.
    static CnptReader fromBytes(std::string bytes);
    // Streams the bytes `open` yields: one pass now (header, strings, where reading stops), one per
    // forEachRecord call. Same checks.
    static CnptReader fromStream(ByteInputOpener open);
    ~CnptReader();
    CnptReader(CnptReader&& o) noexcept;
    CnptReader& operator=(CnptReader&&) = delete;
    CnptReader(const CnptReader&) = delete;
    CnptReader& operator=(const CnptReader&) = delete;

    const std::vector<std::pair<std::string, std::string>>& header() const { return header_; }
    // The value of a header key (the last chunk that set it), or `fallback`.
    std::string headerValue(std::string_view key, std::string_view fallback = {}) const;
    const std::vector<std::string>& strings() const { return strings_; }
    // String by id; "" for an id the table does not hold.
    const std::string& string(std::uint32_t id) const {
        static const std::string empty;
        return id < strings_.size() ? strings_[id] : empty;
    }

    bool cleanEnd() const { return cleanEnd_; }             // an End chunk was read
    std::int64_t stopOffset() const { return stopOffset_; } // -1 when every byte was read
    const std::string& stopReason() const { return stopReason_; }
    std::size_t chunkCount() const { return chunks_; }
    std::size_t fileSize() const { return size_; }

    // Calls f(type, body, bodySize, fileOffsetOfRecord) for every record of every valid events chunk,
    // in file order. A record whose head or body runs past its chunk ends that chunk: it is counted in
    // badRecords() (for the latest call), and firstBadRecord() is its offset.
    template <class F> void forEachRecord(F&& f) const {
        badRecords_ = 0;
        firstBadRecord_ = -1;
        forEachEventsPayload([&](const char* payload, std::size_t length, std::size_t fileOffset) {
            std::size_t p = 0;
            while (p + 4 <= length) {
                std::uint16_t head[2];
                std::memcpy(head, payload + p, 4);
                if (p + 4 + head[1] > length)
                    break;
                f(static_cast<RecordType>(head[0]), reinterpret_cast<const unsigned char*>(payload + p + 4),
                  head[1], static_cast<std::int64_t>(fileOffset + p));
                p += 4 + head[1];
            }
            if (p < length)
                noteBadRecord(fileOffset + p);
        });
    }
    std::size_t badRecords() const { return badRecords_; }
    std::int64_t firstBadRecord() const { return firstBadRecord_; } // -1 when none

    // Decodes a record body into T: copies min(size, sizeof(T)) bytes, zero-fills the rest.
    template <class T> static T decode(const unsigned char* body, std::uint16_t size) {
        T out;
        std::memset(&out, 0, sizeof out);
        std::memcpy(&out, body, size < sizeof(T) ? size : sizeof(T));
        return out;
    }

private:
    // One chunk that passed its checks: payload = the bytes after type and length.
    struct Chunk {
        std::uint32_t type = 0;
        const char* payload = nullptr;
        std::uint32_t length = 0;
        std::size_t offset = 0; // file offset of the chunk (of its type field)
    };
    // Where a walk over the chunks stopped: offset -1 at the end of the bytes.
    struct Stop {
        std::int64_t offset = -1;
        const char* reason = "";
    };
    // Returns false to end the walk at this chunk (stopOffset() = its offset, with `reason` set).
    using ChunkVisitor = std::function<bool(const Chunk&, const char*& reason)>;

    CnptReader() = default;
    void parse();
    bool parseHeader(const Chunk& c);
    bool parseStrings(const Chunk& c, const char*& reason);
    Stop walkMemory(const ChunkVisitor& visit) const;
    Stop walkStream(const ChunkVisitor& visit, std::size_t* totalBytes) const;
    void forEachEventsPayload(const std::function<void(const char*, std::size_t, std::size_t)>& f) const;
    void noteBadRecord(std::size_t offset) const;

    const char* data_ = nullptr; // the file's bytes: the mapping, or owned_.data(); null when streamed
    std::size_t size_ = 0;
    void* mapping_ = nullptr;
    std::string owned_;
    ByteInputOpener open_; // set when streamed
    std::vector<std::pair<std::string, std::string>> header_;
    std::vector<std::string> strings_;
    std::size_t stringBytes_ = 0;
    std::vector<std::pair<std::size_t, std::size_t>> eventSpans_; // [begin, end) payload ranges (in memory)
    bool cleanEnd_ = false;
    std::int64_t stopOffset_ = -1;
    std::string stopReason_;
    std::size_t chunks_ = 0;
    mutable std::size_t badRecords_ = 0;
    mutable std::int64_t firstBadRecord_ = -1;
    mutable std::vector<char> chunkBuffer_; // streamed: the current chunk (grows to the largest one)
};

} // namespace cnpt
