#include "export/CsvWriter.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace cnp {

namespace {

// [+-] digits [. digits] [(e|E) [+-] digits], with at least one digit before the exponent.
bool isPlainNumber(std::string_view s) {
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
            ++i;
        return i - from;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    std::size_t mantissa = digits();
    if (i < s.size() && s[i] == '.') {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0)
        return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (digits() == 0)
            return false;
    }
    return i == s.size();
}

} // namespace

bool CsvWriter::needsNeutralising(std::string_view s) {
    if (s.empty() || std::string_view("=+-@\t\r").find(s.front()) == std::string_view::npos)
        return false;
    return !isPlainNumber(s);
}

bool CsvWriter::needsQuotes(std::string_view s) {
    if (s.empty())
        return false;
    if (s.front() == ' ' || s.back() == ' ')
        return true;
    return s.find_first_of(",\"\r\n") != std::string_view::npos;
}

std::string CsvWriter::quote(std::string_view field) {
    std::string neutralised;
    if (needsNeutralising(field)) {
        neutralised = "'" + std::string(field);
        field = neutralised;
    }
    if (!needsQuotes(field))
        return std::string(field);
    std::string q;
    q.reserve(field.size() + 2);
    q += '"';
    for (char c : field) {
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
    if (needsQuotes(s) || needsNeutralising(s))
        out_.write(quote(s));
    else
        out_.write(s); // the common case, without a copy
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
