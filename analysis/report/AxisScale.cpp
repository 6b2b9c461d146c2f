#include "report/AxisScale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace cnp::report {

namespace {
double finiteAxisValue(double v) {
    return std::isnan(v) ? 0 : std::clamp(v, -kAxisLimit, kAxisLimit);
}
} // namespace

double niceStep(double span, int intervals) {
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    // Clamped so that the power of ten below is a normal, finite number.
    const double raw = std::clamp(span / std::max(1, intervals), 1e-300, 1e300);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

AxisScale axisScale(double lo, double hi, int intervals) {
    lo = finiteAxisValue(lo);
    hi = finiteAxisValue(hi);
    if (lo > hi)
        std::swap(lo, hi);
    intervals = std::clamp(intervals, 1, kMaxAxisTicks - 3);
    // A span of less than 1e-9 of the values' magnitude (two equal large values, 1e15 .. 1e15 + 0.125)
    // is widened to that, so that first + step differs from first (a double holds ~16 digits).
    const double magnitude = std::max(std::fabs(lo), std::fabs(hi));
    const double span = std::max(hi - lo, magnitude * 1e-9);
    AxisScale a;
    a.step = niceStep(span, intervals);
    a.first = std::floor(lo / a.step) * a.step;
    const double last = std::max(a.first + a.step, std::ceil(hi / a.step) * a.step);
    // step >= span / intervals, so (last - first) / step <= intervals + 2; the clamp is a backstop.
    const double n = std::round((last - a.first) / a.step) + 1;
    a.ticks = static_cast<int>(std::clamp(n, 2.0, static_cast<double>(kMaxAxisTicks)));
    return a;
}

namespace {
std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}
} // namespace

std::string tickLabel(double v) {
    if (v == 0)
        return "0";
    const double a = std::fabs(v);
    if (!(a < 1e15)) { // huge, inf or NaN: "%.0f" would print up to 309 digits
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", v);
        return buf;
    }
    if (a >= 1e6)
        return fixed(v / 1e6, a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e3)
        return fixed(v / 1e3, a >= 1e4 ? 0 : 1) + "k";
    return fixed(v, a >= 10 ? 0 : a >= 1 ? 1 : 2);
}

} // namespace cnp::report
