#pragma once
// The one set of human-readable numbers for the CLI tables, the reports and the GUI (docs/formatting.md).
// Style: a space before a unit word ("12.3 ms", "48.0 MiB", "148.2k tokens/s"), none before "%" and "×";
// "µs" (U+00B5), never "us"; three significant digits for durations; "," groups thousands of counts.
// Every function is pure and locale-independent (snprintf in the C locale; the process never calls
// setlocale for LC_NUMERIC).
#include <cstdint>
#include <string>

namespace cnp::units {

// The unit in which a value of `maxNs` reads as a number in [1, 1000): s, ms, µs or ns.
struct TimeScale {
    double nsPerUnit = 1e6;    // 1 = ns, 1e3 = µs, 1e6 = ms, 1e9 = s
    const char* suffix = "ms"; // "ns", "µs", "ms", "s" (UTF-8)
};
TimeScale timeScale(double maxNs);

std::string duration(double ns);            // 850 -> "850 ns", 1234 -> "1.23 µs", 5.53e7 -> "55.3 ms"
std::string durationExact(std::int64_t ns); // 53551234 -> "53.551234 ms (53,551,234 ns)"; 999 -> "999 ns"
std::string durationIn(double ns, double unitNs,
                       int decimals);                        // fixed unit, e.g. (5.53e7, 1e6, 2) -> "55.30"
std::string rate(double perSecond, const std::string& unit); // 148190 -> "148.2k tokens/s"
std::string percent(double fraction, int decimals = 1);      // 0.1234 -> "12.3%"
std::string ratio(double r);                                 // 1.3201 -> "1.32×"
// A ratio and its 95% CI: "1.32× [1.30×, 1.34×]"; without one "1.32× (too few steps for a CI)".
std::string ratioWithCi(double r, bool hasCi, double lo, double hi);
std::string count(std::int64_t v);         // 1234567 -> "1,234,567"
std::string bytes(double b);               // 50331648 -> "48.0 MiB"
std::string fixed(double v, int decimals); // (2.5, 3) -> "2.500": a bare number

} // namespace cnp::units
