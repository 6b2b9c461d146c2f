#pragma once
// The mapping between time (int64 ns) and pixel columns of a timeline view.
// The visible window is [start, start + span) over `width` columns; column c holds the times t with
// column(t) == c, i.e. floor((t - start) * width / span) == c. All arithmetic is exact integer
// arithmetic, so column(t) and firstTimeOfColumn(c) are exact inverses:
//   column(firstTimeOfColumn(c)) == c  and  column(firstTimeOfColumn(c) - 1) == c - 1.
// The products (t - start) * width and c * span are formed in 64 bits when they fit (checked with
// __builtin_mul_overflow; so while |t - start| and |c| * span stay below 2^63 / width, e.g. ~55 days
// at 1920 px), else in 128 bits; both paths give identical results (exact floor / ceil, negatives too).
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

    // Column holding t (may be < 0 or >= width for times outside the window). O(1): one 64-bit
    // division, or a 128-bit one when (t - start) * width overflows int64.
    std::int64_t column(Ns t) const {
        std::int64_t p;
        if (__builtin_mul_overflow(t - start_, static_cast<std::int64_t>(width_), &p))
            return columnWide(t);
        // floor(p / span) for span > 0: C++ division truncates toward zero, so step down when the
        // remainder is negative (p < 0 and not a multiple).
        const std::int64_t q = p / span_, r = p % span_;
        return q - (r < 0 ? 1 : 0);
    }
    // Smallest t with column(t) >= c, i.e. start + ceil(c * span / width). O(1): one 64-bit
    // division, or a 128-bit one when c * span overflows int64.
    Ns firstTimeOfColumn(std::int64_t c) const {
        std::int64_t p;
        if (__builtin_mul_overflow(c, span_, &p))
            return firstTimeOfColumnWide(c);
        // ceil(p / width) for width > 0: truncation toward zero already rounds a negative p up.
        const std::int64_t q = p / width_, r = p % width_;
        return start_ + q + (r > 0 ? 1 : 0);
    }
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
    // Caps the span at hi - lo (zooming out stops at the whole [lo, hi)) and then moves the window
    // inside [lo, hi): the view never shows time outside it, and every time inside stays reachable.
    // No-op when hi <= lo. O(1).
    void clampTo(Ns lo, Ns hi);

    bool operator==(const TimeAxis&) const = default;

private:
    // The 128-bit paths of column() and firstTimeOfColumn(), for products that overflow int64.
    std::int64_t columnWide(Ns t) const;
    Ns firstTimeOfColumnWide(std::int64_t c) const;

    Ns start_ = 0;
    Ns span_ = 1000;
    int width_ = 1;
};

} // namespace cnp::timeline
