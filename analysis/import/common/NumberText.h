#pragma once
// Exact conversions of JSON number text (as RapidJSON hands it over with kParseNumbersAsStringsFlag)
// without going through double: a Kineto timestamp such as 5139643954087.71 us has 16 significant
// digits, at the limit of a double's 53-bit mantissa, so text -> double -> *1000 could be 1 ns off.
// All functions return false (leaving `out` untouched) for text that is not a finite number in range.
#include <cstdint>
#include <string_view>

namespace cnp {

// Decimal text scaled by 10^decimals into an integer, rounding half away from zero on the first
// dropped digit: parseScaledDecimal("5139643954087.71", 3) = 5139643954087710.
// Accepts JSON number syntax (sign, fraction, exponent). O(length).
bool parseScaledDecimal(std::string_view text, int decimals, std::int64_t& out);

// Microseconds text -> nanoseconds (parseScaledDecimal with 3 decimals).
inline bool parseMicrosAsNanos(std::string_view text, std::int64_t& ns) {
    return parseScaledDecimal(text, 3, ns);
}

// An integer: plain decimal text, a decimal with a zero fraction ("7.0"), or - for values that
// producers write as strings, e.g. ROCm's "stream": "0x0" - hexadecimal with a 0x prefix.
bool parseInteger(std::string_view text, std::int64_t& out);

// Any finite number -> double (strtod semantics); false for NaN/Inf/garbage.
bool parseDouble(std::string_view text, double& out);

} // namespace cnp
