#include "metrics/KernelStat.h"

#include "core/TimeBounds.h"

#include <cmath>

namespace cnp {

KernelStatBuilder::KernelStatBuilder(std::int64_t count, Ns total)
    : lowMiddle_(count > 0 ? (count - 1) / 2 : 0), highMiddle_(count / 2) {
    s_.count = count;
    s_.total = total;
    if (count > 0)
        s_.mean = static_cast<double>(total) / static_cast<double>(count);
}

KernelStat KernelStatBuilder::finish() const {
    KernelStat s = s_;
    if (s.count == 0)
        return s;
    s.median = lowMiddle_ == highMiddle_
                   ? static_cast<double>(lowValue_)
                   : (static_cast<double>(lowValue_) + static_cast<double>(highValue_)) / 2.0;
    if (s.count > 1)
        s.stddev = std::sqrt(squares_ / static_cast<double>(s.count - 1));
    return s;
}

KernelStat statsOf(const std::vector<Ns>& sortedDurations) {
    Ns total = 0;
    for (Ns x : sortedDurations)
        total = saturatingAdd(total, x); // durations of a crafted workspace may sum beyond int64
    KernelStatBuilder b(static_cast<std::int64_t>(sortedDurations.size()), total);
    for (Ns x : sortedDurations)
        b.add(x);
    return b.finish();
}

} // namespace cnp
