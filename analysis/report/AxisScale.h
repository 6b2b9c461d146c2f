#pragma once
// A chart axis's ticks: a "nice" step (1, 2 or 5 x 10^k) and the tick values first, first + step, ...,
// covering [lo, hi]. Invariants, whatever the input: the step is finite and > 0, every tick is finite,
// and there are 2 to kMaxAxisTicks ticks, so a drawing loop runs over the tick index (never "t += step
// until t > max", which never ends when the step does not advance t: a range of [0, 1e308] made the
// step infinite and `cnp report` looped, issue 33.2). Non-finite input is made finite first: NaN counts
// as 0, and +-inf and anything beyond +-kAxisLimit as +-kAxisLimit. O(1).
#include <string>

namespace cnp::report {

inline constexpr int kMaxAxisTicks = 32;
inline constexpr double kAxisLimit = 1e300; // |tick| stays below ~1.1e300: sums and spans stay finite

struct AxisScale {
    double first = 0, step = 1; // the first tick and the distance between ticks
    int ticks = 2;              // 2 <= ticks <= kMaxAxisTicks
    double at(int i) const { return first + step * i; }
    double last() const { return at(ticks - 1); }
};

// About `intervals` intervals (clamped to 1 .. kMaxAxisTicks - 3) covering [min(lo, hi), max(lo, hi)];
// a zero span at 0 gives the ticks 0 and 1.
AxisScale axisScale(double lo, double hi, int intervals);

// A nice step giving about `intervals` intervals up to `span`: 1 when span is not > 0 or not finite;
// otherwise within [1e-300, 1e301].
double niceStep(double span, int intervals);

// A short tick label (0, 2.5, 40, 1.5k, 12M; 3 significant digits with an exponent from 1e15 up, and
// for inf and NaN), at most 31 characters whatever v is.
std::string tickLabel(double v);

} // namespace cnp::report
