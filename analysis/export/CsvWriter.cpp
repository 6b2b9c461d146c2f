#include "export/CsvWriter.h"

#include <charconv>
#include <cmath>

namespace cnp {

bool CsvWriter::needsQuotes(std::string_view s) {
    if (s.empty())
        return false;
    if (s.front() == ' ' || s.back() == ' ')
        return true;
    return s.find_first_of(",\"\r\n") != std::string_view::npos;
}

std::string CsvWriter::quote(std::string_view s) {
    if (!needsQuotes(s))
        return std::string(s);
    std::string q;
    q.reserve(s.size() + 2);
    q += '"';
    for (char c : s) {
        if (c == '"')
            q += '"';
        q += c;
    }
    q += '"';
    return q;
}

void CsvWriter::separator() {
    if (!firstInRow_)
        out_.Put(',');
    firstInRow_ = false;
}

CsvWriter& CsvWriter::field(std::string_view s) {
    separator();
    if (needsQuotes(s))
        out_.write(quote(s));
    else
        out_.write(s);
    return *this;
}

CsvWriter& CsvWriter::field(std::int64_t v) {
    separator();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.write(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    return *this;
}

CsvWriter& CsvWriter::field(double v) {
    separator();
    if (!std::isfinite(v))
        return *this;
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.write(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    return *this;
}

CsvWriter& CsvWriter::empty() {
    separator();
    return *this;
}

void CsvWriter::endRow() {
    out_.write("\r\n");
    firstInRow_ = true;
    ++rows_;
}

} // namespace cnp
