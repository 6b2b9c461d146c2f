#pragma once
// Reads a .cnpt file (format: CnptRecords.h). Plain C++: used by the importer and by cnpt-dump.
// The file is mapped read-only (or, from fromBytes, held in memory); records are decoded on demand by
// forEachRecord. Move-only: the mapping is released by the destructor.
// A file cut short or with a corrupted chunk reads back to its last whole chunk: stopOffset()/stopReason()
// say where and why reading stopped. A file that is not .cnpt at all throws FormatError.
#include "CnptRecords.h"

#include <cstdint>
#include <cstring>
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

class CnptReader {
public:
    // Reads `path`. Throws FormatError when it cannot be read or does not start with the magic.
    explicit CnptReader(const std::string& path);
    // Parses bytes already in memory (tests, gunzipped files). Same checks.
    static CnptReader fromBytes(std::string bytes);
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
    // in file order. A record whose size runs past its chunk ends that chunk (counted in badRecords()).
    template <class F> void forEachRecord(F&& f) const {
        for (const auto& [begin, end] : eventSpans_) {
            std::size_t p = begin;
            while (p + 4 <= end) {
                std::uint16_t head[2];
                std::memcpy(head, data_ + p, 4);
                if (p + 4 + head[1] > end) {
                    ++badRecords_;
                    break;
                }
                f(static_cast<RecordType>(head[0]), reinterpret_cast<const unsigned char*>(data_ + p + 4),
                  head[1], static_cast<std::int64_t>(p));
                p += 4 + head[1];
            }
        }
    }
    std::size_t badRecords() const { return badRecords_; }

    // Decodes a record body into T: copies min(size, sizeof(T)) bytes, zero-fills the rest.
    template <class T> static T decode(const unsigned char* body, std::uint16_t size) {
        T out;
        std::memset(&out, 0, sizeof out);
        std::memcpy(&out, body, size < sizeof(T) ? size : sizeof(T));
        return out;
    }

private:
    CnptReader() = default;
    void parse();

    const char* data_ = nullptr; // the file's bytes: the mapping, or owned_.data()
    std::size_t size_ = 0;
    void* mapping_ = nullptr;
    std::string owned_;
    std::vector<std::pair<std::string, std::string>> header_;
    std::vector<std::string> strings_;
    std::vector<std::pair<std::size_t, std::size_t>> eventSpans_; // [begin, end) payload byte ranges
    bool cleanEnd_ = false;
    std::int64_t stopOffset_ = -1;
    std::string stopReason_;
    std::size_t chunks_ = 0;
    mutable std::size_t badRecords_ = 0;
};

} // namespace cnpt
