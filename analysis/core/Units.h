#pragma once
// Human-readable numbers shared by the CLI tables, the reports and the GUI: the unit is chosen for
// reading (ns, µs, ms, s; k/M for rates) with 3 significant digits where it matters.
#include <cstdint>
#include <string>

namespace cnp::units {

std::string duration(double ns); // 850 -> "850 ns", 1234 -> "1.23 µs", 5.53e7 -> "55.3 ms"
std::string durationIn(double ns, double unitNs,
                       int decimals);                        // fixed unit, e.g. (5.53e7, 1e6, 2) -> "55.30"
std::string rate(double perSecond, const std::string& unit); // 148190 -> "148.2k tokens/s"
std::string percent(double fraction, int decimals = 1);      // 0.1234 -> "12.3%"
std::string ratio(double r);                                 // 1.3201 -> "1.32×"
std::string count(std::int64_t v);                           // 1234567 -> "1,234,567"
std::string bytes(double b);                                 // 50331648 -> "48.0 MiB"

} // namespace cnp::units
