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
// Three significant digits: 1.23, 12.3, 123.
const char* sigFormat(double v) {
    const double a = std::fabs(v);
    return a >= 100 ? "%.0f%s" : a >= 10 ? "%.1f%s" : "%.2f%s";
}
} // namespace

std::string duration(double ns) {
    const double a = std::fabs(ns);
    if (a < 1e3)
        return format("%.0f%s", ns, " ns");
    if (a < 1e6)
        return format(sigFormat(ns / 1e3), ns / 1e3, " µs");
    if (a < 1e9)
        return format(sigFormat(ns / 1e6), ns / 1e6, " ms");
    return format(sigFormat(ns / 1e9), ns / 1e9, " s");
}

std::string durationIn(double ns, double unitNs, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, ns / unitNs);
    return buf;
}

std::string rate(double perSecond, const std::string& unit) {
    const double a = std::fabs(perSecond);
    char buf[96];
    if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2fM %s", perSecond / 1e6, unit.c_str());
    else if (a >= 1e4)
        std::snprintf(buf, sizeof buf, "%.1fk %s", perSecond / 1e3, unit.c_str());
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

std::string count(std::int64_t v) {
    std::string digits = std::to_string(v < 0 ? -v : v), out;
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

} // namespace cnp::units
