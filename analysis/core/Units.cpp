#include "core/Units.h"

#include <cmath>
#include <cstdio>

namespace cnp::units {

namespace {
std::string format(const char* fmt, double v, const char* suffix) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v, suffix);
    return buf;
}
// Three significant digits: 1.23, 12.3, 123. Chosen on the value as printed, so 9.996 is "10.0".
const char* sigFormat(double v) {
    const double a = std::fabs(v);
    return a >= 99.95 ? "%.0f%s" : a >= 9.995 ? "%.1f%s" : "%.2f%s";
}
// The largest unit in which `ns`, rounded to three significant digits, is at least 1: 999.6 µs
// rounds to "1000 µs", so it reads "1.00 ms" instead.
TimeScale readingScale(double ns) {
    const double a = std::fabs(ns);
    if (a >= 999.5e6)
        return {1e9, "s"};
    if (a >= 999.5e3)
        return {1e6, "ms"};
    if (a >= 999.5)
        return {1e3, "µs"};
    return {1.0, "ns"};
}
} // namespace

TimeScale timeScale(double maxNs) {
    const double a = std::fabs(maxNs);
    if (a >= 1e9)
        return {1e9, "s"};
    if (a >= 1e6)
        return {1e6, "ms"};
    if (a >= 1e3)
        return {1e3, "µs"};
    return {1.0, "ns"};
}

std::string duration(double ns) {
    const TimeScale s = readingScale(ns);
    if (s.nsPerUnit == 1.0)
        return format("%.0f %s", ns, s.suffix);
    const double v = ns / s.nsPerUnit;
    return format(sigFormat(v), v, (std::string(" ") + s.suffix).c_str());
}

std::string durationExact(std::int64_t ns) {
    const TimeScale s = timeScale(static_cast<double>(ns));
    if (s.nsPerUnit == 1.0)
        return std::to_string(ns) + " ns";
    const int decimals = s.nsPerUnit == 1e9 ? 9 : s.nsPerUnit == 1e6 ? 6 : 3;
    return fixed(static_cast<double>(ns) / s.nsPerUnit, decimals) + " " + s.suffix + " (" + count(ns) +
           " ns)";
}

std::string durationIn(double ns, double unitNs, int decimals) {
    return fixed(ns / unitNs, decimals);
}

std::string rate(double perSecond, const std::string& unit) {
    const double a = std::fabs(perSecond);
    char buf[96];
    if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2fM %s", perSecond / 1e6, unit.c_str());
    else if (a >= 1e4)
        std::snprintf(buf, sizeof buf, "%.1fk %s", perSecond / 1e3, unit.c_str());
    else if (a >= 1e3)
        std::snprintf(buf, sizeof buf, "%.2fk %s", perSecond / 1e3, unit.c_str());
    else
        std::snprintf(buf, sizeof buf, "%.2f %s", perSecond, unit.c_str());
    return buf;
}

std::string percent(double fraction, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f%%", decimals, fraction * 100.0);
    return buf;
}

std::string ratio(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f×", r);
    return buf;
}

std::string ratioWithCi(double r, bool hasCi, double lo, double hi) {
    if (!hasCi)
        return ratio(r) + " (too few steps for a CI)";
    return ratio(r) + " [" + ratio(lo) + ", " + ratio(hi) + "]";
}

std::string count(std::int64_t v) {
    // The magnitude as unsigned, so INT64_MIN has one too.
    const std::uint64_t m = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    const std::string digits = std::to_string(m);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

std::string bytes(double b) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (std::fabs(b) >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
    return buf;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace cnp::units
