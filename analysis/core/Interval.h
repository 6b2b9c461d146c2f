#pragma once
// A half-open integer-ns interval [start, end); metrics/Intervals.h has its algebra.
#include "core/TraceData.h"

#include <limits>

namespace cnp {

struct Interval {
    Ns start = 0, end = 0;
    // end - start, 0 when empty, INT64_MAX when the difference exceeds int64 (values read from a crafted
    // workspace are refused, but a length is never undefined behaviour).
    Ns length() const {
        Ns d = 0;
        if (end <= start)
            return 0;
        return __builtin_sub_overflow(end, start, &d) ? std::numeric_limits<Ns>::max() : d;
    }
    bool operator==(const Interval&) const = default;
};

} // namespace cnp
