#pragma once
// The rows of one INSERT statement, collected in memory without touching the database, and written
// later by flush(). This lets a thread compute rows (e.g. the run summaries) while another thread owns
// the workspace connection (the event insert of an ingest). Besides integers, doubles, text and NULL, a
// value can be the run id (known only at flush) or a string that becomes its workspace string id
// (interned at flush). Memory: finished rows are stored encoded, one tag byte per column plus a
// zigzag varint (integers, string indexes) or 8 bytes (doubles), in 1 MiB chunks that never move: about
// 35 bytes for an 11-column idle-gap row (tst_rowbuffer measures it) instead of 176 in 16-byte values,
// with no vector doubling slack (a 100M-event run buffers 16M such rows). Plus each distinct string once.
#include "store/Workspace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cnp {

class RowBuffer {
public:
    // `sql`: an INSERT with positional parameters (?), bound 1-based like Statement.
    explicit RowBuffer(std::string sql);

    RowBuffer& bind(int i, std::int64_t v);
    RowBuffer& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    RowBuffer& bind(int i, double v);
    RowBuffer& bind(int i, std::string_view text); // stored as text
    RowBuffer& bindNull(int i);
    RowBuffer& bindRunId(int i);                        // the run id given to flush()
    RowBuffer& bindStringId(int i, std::string_view s); // the workspace id of string s
    // Ends the current row (unbound columns are NULL); the name mirrors Statement::exec.
    void exec();

    std::size_t rows() const { return rows_; }
    // Bytes held by the finished rows' chunks (their capacity), for tests and benchmarks.
    std::size_t encodedBytes() const { return chunks_.size() * chunkBytes_; }
    // Inserts every row into `ws` (inside the caller's transaction). O(rows x columns).
    void flush(Workspace& ws, RunId runId) const;

private:
    enum class Kind : std::uint8_t { Null, Int, Real, Text, RunId, StringId };
    // 16 bytes: the kind and one 8-byte payload (an integer, a double, or an index into strings_).
    struct Value {
        Kind kind = Kind::Null;
        union {
            std::int64_t i = 0;
            double d;
        };
        static Value of(Kind k, std::int64_t v) {
            Value x;
            x.kind = k;
            x.i = v;
            return x;
        }
        static Value real(double v) {
            Value x;
            x.kind = Kind::Real;
            x.d = v;
            return x;
        }
    };
    static_assert(sizeof(Value) == 16);
    Value& slot(int i);
    std::uint32_t keep(std::string_view s);

    void encode(const Value& v);

    std::string sql_;
    int columns_;
    std::size_t chunkBytes_; // at least one whole encoded row
    std::vector<Value> row_; // the row being bound
    struct Chunk {
        std::unique_ptr<std::uint8_t[]> bytes;
        std::size_t used = 0;
    };
    std::vector<Chunk> chunks_; // finished rows, encoded; a row never spans two chunks
    std::size_t rows_ = 0;
    std::vector<std::string> strings_;
    std::unordered_map<std::string, std::uint32_t> stringIndex_;
};

} // namespace cnp
