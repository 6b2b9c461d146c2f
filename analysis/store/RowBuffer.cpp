#include "store/RowBuffer.h"

#include <algorithm>
#include <stdexcept>

namespace cnp {

RowBuffer::RowBuffer(std::string sql)
    : sql_(std::move(sql)), columns_(static_cast<int>(std::count(sql_.begin(), sql_.end(), '?'))),
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

void RowBuffer::exec() {
    values_.insert(values_.end(), row_.begin(), row_.end());
    std::fill(row_.begin(), row_.end(), Value{});
}

void RowBuffer::flush(Workspace& ws, std::int64_t runId) const {
    std::vector<std::int64_t> ids(strings_.size(), -1); // workspace ids, interned on first use
    Statement st(ws.db(), sql_);
    for (std::size_t r = 0; r < rows(); ++r) {
        for (int c = 0; c < columns_; ++c) {
            const Value& v = values_[r * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(c)];
            switch (v.kind) {
            case Kind::Null:
                st.bindNull(c + 1);
                break;
            case Kind::Int:
                st.bind(c + 1, v.i);
                break;
            case Kind::Real:
                st.bind(c + 1, v.d);
                break;
            case Kind::Text:
                st.bind(c + 1, std::string_view(strings_[static_cast<std::size_t>(v.i)]));
                break;
            case Kind::RunId:
                st.bind(c + 1, runId);
                break;
            case Kind::StringId: {
                auto& id = ids[static_cast<std::size_t>(v.i)];
                if (id < 0)
                    id = ws.internString(strings_[static_cast<std::size_t>(v.i)]);
                st.bind(c + 1, id);
                break;
            }
            }
        }
        st.exec();
    }
}

} // namespace cnp
