#include "import/common/NumberText.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace cnp {

namespace {
inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
} // namespace

bool parseScaledDecimal(std::string_view text, int decimals, std::int64_t& out) {
    std::size_t i = 0;
    const std::size_t n = text.size();
    bool negative = false;
    if (i < n && text[i] == '-') {
        negative = true;
        ++i;
    }
    const std::size_t intBegin = i;
    while (i < n && isDigit(text[i]))
        ++i;
    const std::string_view intDigits = text.substr(intBegin, i - intBegin);
    std::string_view fracDigits;
    if (i < n && text[i] == '.') {
        const std::size_t fracBegin = ++i;
        while (i < n && isDigit(text[i]))
            ++i;
        fracDigits = text.substr(fracBegin, i - fracBegin);
    }
    if (intDigits.empty() && fracDigits.empty())
        return false;
    long long exponent = 0;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            expNegative = text[i++] == '-';
        const std::size_t expBegin = i;
        while (i < n && isDigit(text[i])) {
            if (exponent < 100000)
                exponent = exponent * 10 + (text[i] - '0');
            ++i;
        }
        if (i == expBegin)
            return false;
        if (expNegative)
            exponent = -exponent;
    }
    if (i != n)
        return false;

    // The digit string D = intDigits + fracDigits; the result keeps its first `keep` digits
    // (zero-padded on the right) and rounds on digit number `keep`.
    const long long total =
        static_cast<long long>(intDigits.size()) + static_cast<long long>(fracDigits.size());
    auto digitAt = [&](long long k) -> int {
        if (k < 0 || k >= total)
            return 0;
        const auto idx = static_cast<std::size_t>(k);
        return idx < intDigits.size() ? intDigits[idx] - '0' : fracDigits[idx - intDigits.size()] - '0';
    };
    bool allZero = true;
    for (long long k = 0; k < total && allZero; ++k)
        allZero = digitAt(k) == 0;
    if (allZero) {
        out = 0;
        return true;
    }
    const long long keep = static_cast<long long>(intDigits.size()) + exponent + decimals;
    if (keep > 40) {
        // More than 40 digits before the point can only fit if they start with many zeros.
        long long firstNonZero = 0;
        while (digitAt(firstNonZero) == 0)
            ++firstNonZero;
        if (keep - firstNonZero > 19)
            return false;
    }
    constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::uint64_t value = 0;
    for (long long k = 0; k < keep; ++k) {
        const int d = digitAt(k);
        if (value > (kMax - static_cast<std::uint64_t>(d)) / 10)
            return false;
        value = value * 10 + static_cast<std::uint64_t>(d);
    }
    if (keep >= 0 && digitAt(keep) >= 5) {
        if (value == kMax)
            return false;
        ++value;
    }
    out = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
    return true;
}

bool parseInteger(std::string_view text, std::int64_t& out) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        std::uint64_t v = 0;
        const char* end = text.data() + text.size();
        auto [p, ec] = std::from_chars(text.data() + 2, end, v, 16);
        if (ec != std::errc() || p != end ||
            v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return false;
        out = static_cast<std::int64_t>(v);
        return true;
    }
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v, 10);
    if (ec != std::errc() || p == text.data())
        return false;
    if (p == end) {
        out = v;
        return true;
    }
    // "7.0", "7.000", "1e3": accept when the value is an exact integer.
    std::int64_t scaled = 0;
    if (!parseScaledDecimal(text, 0, scaled))
        return false;
    std::int64_t milli = 0;
    if (!parseScaledDecimal(text, 3, milli) || milli % 1000 != 0)
        return false;
    out = scaled;
    return true;
}

bool parseDouble(std::string_view text, double& out) {
    if (text.empty() || text.size() > 400)
        return false;
    const std::string s(text);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
        return false;
    out = v;
    return true;
}

} // namespace cnp
