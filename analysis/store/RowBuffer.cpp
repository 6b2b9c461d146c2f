#include "store/RowBuffer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace cnp {

namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxValueBytes = 1 + 10; // a tag and the longest varint (10 bytes for 64 bits)

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t u) {
    return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}

std::uint8_t* putVarint(std::uint8_t* p, std::uint64_t u) {
    while (u >= 0x80) {
        *p++ = static_cast<std::uint8_t>(u | 0x80);
        u >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(u);
    return p;
}
const std::uint8_t* getVarint(const std::uint8_t* p, std::uint64_t* u) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        const std::uint8_t b = *p++;
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *u = v;
    return p;
}

} // namespace

RowBuffer::RowBuffer(std::string sql)
    : sql_(std::move(sql)), columns_(static_cast<int>(std::count(sql_.begin(), sql_.end(), '?'))),
      chunkBytes_(std::max(kChunkBytes, static_cast<std::size_t>(columns_) * kMaxValueBytes)),
      row_(static_cast<std::size_t>(columns_)) {}

RowBuffer::Value& RowBuffer::slot(int i) {
    if (i < 1 || i > columns_)
        throw std::out_of_range("RowBuffer: parameter " + std::to_string(i) + " of " +
                                std::to_string(columns_));
    return row_[static_cast<std::size_t>(i - 1)];
}

std::uint32_t RowBuffer::keep(std::string_view s) {
    auto [it, fresh] = stringIndex_.try_emplace(std::string(s), static_cast<std::uint32_t>(strings_.size()));
    if (fresh)
        strings_.emplace_back(s);
    return it->second;
}

RowBuffer& RowBuffer::bind(int i, std::int64_t v) {
    slot(i) = Value::of(Kind::Int, v);
    return *this;
}
RowBuffer& RowBuffer::bind(int i, double v) {
    slot(i) = Value::real(v);
    return *this;
}
RowBuffer& RowBuffer::bind(int i, std::string_view text) {
    slot(i) = Value::of(Kind::Text, keep(text));
    return *this;
}
RowBuffer& RowBuffer::bindNull(int i) {
    slot(i) = {};
    return *this;
}
RowBuffer& RowBuffer::bindRunId(int i) {
    slot(i) = Value::of(Kind::RunId, 0);
    return *this;
}
RowBuffer& RowBuffer::bindStringId(int i, std::string_view s) {
    slot(i) = Value::of(Kind::StringId, keep(s));
    return *this;
}

// Appends `v` to the last chunk, which exec() made room for.
void RowBuffer::encode(const Value& v) {
    Chunk& c = chunks_.back();
    std::uint8_t* p = c.bytes.get() + c.used;
    *p++ = static_cast<std::uint8_t>(v.kind);
    switch (v.kind) {
    case Kind::Null:
    case Kind::RunId:
        break;
    case Kind::Int:
        p = putVarint(p, zigzag(v.i));
        break;
    case Kind::Real:
        std::memcpy(p, &v.d, sizeof v.d);
        p += sizeof v.d;
        break;
    case Kind::Text:
    case Kind::StringId:
        p = putVarint(p, static_cast<std::uint64_t>(v.i));
        break;
    }
    c.used = static_cast<std::size_t>(p - c.bytes.get());
}

void RowBuffer::exec() {
    const std::size_t worst = static_cast<std::size_t>(columns_) * kMaxValueBytes;
    if (chunks_.empty() || chunkBytes_ - chunks_.back().used < worst)
        chunks_.push_back({std::make_unique_for_overwrite<std::uint8_t[]>(chunkBytes_), 0});
    for (const Value& v : row_)
        encode(v);
    ++rows_;
    std::fill(row_.begin(), row_.end(), Value{});
}

void RowBuffer::flush(Workspace& ws, RunId runId) const {
    std::vector<std::int64_t> ids(strings_.size(), -1); // workspace ids, interned on first use
    Statement st(ws.db(), sql_);
    for (const Chunk& chunk : chunks_) {
        const std::uint8_t* p = chunk.bytes.get();
        const std::uint8_t* const end = p + chunk.used;
        while (p < end) { // one row per pass: exec() writes whole rows
            for (int c = 1; c <= columns_; ++c) {
                const auto kind = static_cast<Kind>(*p++);
                std::uint64_t u = 0;
                switch (kind) {
                case Kind::Null:
                    st.bindNull(c);
                    break;
                case Kind::Int:
                    p = getVarint(p, &u);
                    st.bind(c, unzigzag(u));
                    break;
                case Kind::Real: {
                    double d = 0;
                    std::memcpy(&d, p, sizeof d);
                    p += sizeof d;
                    st.bind(c, d);
                    break;
                }
                case Kind::Text:
                    p = getVarint(p, &u);
                    st.bind(c, std::string_view(strings_[u]));
                    break;
                case Kind::RunId:
                    st.bind(c, runId);
                    break;
                case Kind::StringId: {
                    p = getVarint(p, &u);
                    auto& id = ids[u];
                    if (id < 0)
                        id = ws.internString(strings_[u]);
                    st.bind(c, id);
                    break;
                }
                }
            }
            st.exec();
        }
    }
}

} // namespace cnp
