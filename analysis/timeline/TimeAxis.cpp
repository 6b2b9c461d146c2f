#include "timeline/TimeAxis.h"

#include <algorithm>
#include <cmath>

namespace cnp::timeline {

namespace {
__extension__ typedef __int128 i128;

// floor(a / b) for b > 0.
i128 floorDiv(i128 a, i128 b) {
    i128 q = a / b;
    if ((a % b != 0) && (a < 0))
        --q;
    return q;
}
// ceil(a / b) for b > 0.
i128 ceilDiv(i128 a, i128 b) {
    return -floorDiv(-a, b);
}
} // namespace

TimeAxis::TimeAxis(Ns start, Ns span, int width)
    : start_(start), span_(std::max<Ns>(span, kMinSpanNs)), width_(std::max(width, 1)) {}

std::int64_t TimeAxis::columnWide(Ns t) const {
    return static_cast<std::int64_t>(floorDiv((static_cast<i128>(t) - start_) * width_, span_));
}

Ns TimeAxis::firstTimeOfColumnWide(std::int64_t c) const {
    // Summed in 128 bits: the quotient alone can exceed int64 while start + quotient does not (UBSan,
    // tst_timeline_track's random mapping test); the caller asks only for representable times.
    return static_cast<Ns>(start_ + ceilDiv(static_cast<i128>(c) * span_, width_));
}

double TimeAxis::x(Ns t) const {
    return static_cast<double>(t - start_) * width_ / static_cast<double>(span_);
}

Ns TimeAxis::timeAt(double x) const {
    return start_ + std::llround(x * static_cast<double>(span_) / width_);
}

void TimeAxis::setWidth(int width) {
    width_ = std::max(width, 1);
}

void TimeAxis::setWindow(Ns start, Ns end) {
    start_ = start;
    span_ = std::max<Ns>(end - start, kMinSpanNs);
}

void TimeAxis::zoomAt(double px, double factor) {
    const Ns anchor = timeAt(px);
    const double newSpan = std::max(static_cast<double>(kMinSpanNs), static_cast<double>(span_) * factor);
    span_ = std::max<Ns>(static_cast<Ns>(std::llround(newSpan)), kMinSpanNs);
    start_ = anchor - std::llround(px * static_cast<double>(span_) / width_);
}

void TimeAxis::panPixels(double dx) {
    start_ += std::llround(dx * static_cast<double>(span_) / width_);
}

void TimeAxis::clampTo(Ns lo, Ns hi) {
    if (hi <= lo)
        return;
    span_ = std::clamp<Ns>(span_, std::min(kMinSpanNs, hi - lo), hi - lo);
    start_ = std::clamp(start_, lo, hi - span_);
}

} // namespace cnp::timeline
