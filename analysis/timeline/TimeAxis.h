#pragma once
// The mapping between time (int64 ns) and pixel columns of a timeline view.
// The visible window is [start, start + span) over `width` columns; column c holds the times t with
// column(t) == c, i.e. floor((t - start) * width / span) == c. All arithmetic is exact integer
// arithmetic (128-bit intermediates), so column(t) and firstTimeOfColumn(c) are exact inverses:
//   column(firstTimeOfColumn(c)) == c  and  column(firstTimeOfColumn(c) - 1) == c - 1.
// Absolute epoch timestamps (~1.7e18 ns) never go through a double before `start` is subtracted.
#include "core/TraceData.h"

#include <cstdint>

namespace cnp::timeline {

class TimeAxis {
public:
    static constexpr Ns kMinSpanNs = 16; // deepest zoom: 16 ns across the whole view

    TimeAxis() = default;
    TimeAxis(Ns start, Ns span, int width);

    Ns start() const { return start_; }
    Ns span() const { return span_; }
    Ns end() const { return start_ + span_; }
    int width() const { return width_; }
    double nsPerPixel() const { return static_cast<double>(span_) / width_; }

    // Column holding t (may be < 0 or >= width for times outside the window). O(1).
    std::int64_t column(Ns t) const;
    // Smallest t with column(t) >= c. O(1).
    Ns firstTimeOfColumn(std::int64_t c) const;
    // Sub-pixel position of t, for drawing (0 = left edge of column 0).
    double x(Ns t) const;
    // Time at sub-pixel position x (rounded to the nearest ns).
    Ns timeAt(double x) const;

    void setWidth(int width);
    // Shows [start, end); the span is clamped to >= kMinSpanNs.
    void setWindow(Ns start, Ns end);
    // Zooms by `factor` (< 1 zooms in) keeping the time under pixel `x` fixed.
    void zoomAt(double x, double factor);
    // Moves the window by `dx` pixels (positive: later times come into view).
    void panPixels(double dx);
    // Keeps the window inside [lo, hi) when the span fits, else centres it.
    void clampTo(Ns lo, Ns hi);

    bool operator==(const TimeAxis&) const = default;

private:
    Ns start_ = 0;
    Ns span_ = 1000;
    int width_ = 1;
};

} // namespace cnp::timeline
