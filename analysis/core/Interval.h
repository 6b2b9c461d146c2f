#pragma once
// A half-open integer-ns interval [start, end); metrics/Intervals.h has its algebra.
#include "core/TraceData.h"

namespace cnp {

struct Interval {
    Ns start = 0, end = 0;
    Ns length() const { return end > start ? end - start : 0; }
    bool operator==(const Interval&) const = default;
};

} // namespace cnp
