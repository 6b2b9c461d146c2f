#pragma once
// The cuda_gpu_kern_sum columns of a summary_kernel row (count, total, mean, median, min, max, sample
// stddev) of one kernel's durations, built in one pass over the durations in ascending order. A sorted
// vector (statsOf) and a k-way merge of sorted runs (KernelStatsPool) visit the same values in the same
// order through the same builder, so both give the same doubles bit for bit: ties are equal values, so
// their order among themselves does not change any sum.
#include "core/TraceData.h"

#include <cstdint>
#include <vector>

namespace cnp {

// Times in ns. mean = total / count; median: the middle value, or the mean of the two middle values for
// an even count; stddev: the sample standard deviation, sqrt(sum (x - mean)^2 / (count - 1)), summed in
// ascending order, 0 for fewer than two values. Every field is 0 for no values.
struct KernelStat {
    std::int64_t count = 0;
    Ns total = 0, min = 0, max = 0;
    double mean = 0, median = 0, stddev = 0;
};

// Takes `count` values in ascending order (add), then gives their statistics (finish). `total`, their sum,
// is known beforehand because every squared deviation needs the mean. O(1) time and memory per value.
class KernelStatBuilder {
public:
    KernelStatBuilder(std::int64_t count, Ns total);
    // The next value: not below the previous one.
    void add(Ns x) {
        if (seen_ == 0)
            s_.min = x;
        if (seen_ == lowMiddle_)
            lowValue_ = x;
        if (seen_ == highMiddle_)
            highValue_ = x;
        const double d = static_cast<double>(x) - s_.mean;
        squares_ += d * d;
        s_.max = x;
        ++seen_;
    }
    // Requires every one of the `count` values added.
    KernelStat finish() const;

private:
    KernelStat s_;
    std::int64_t seen_ = 0;
    std::int64_t lowMiddle_ = 0, highMiddle_ = 0; // positions (count - 1) / 2 and count / 2
    Ns lowValue_ = 0, highValue_ = 0;
    double squares_ = 0; // sum of (x - mean)^2 so far
};

// `sortedDurations` ascending. O(n).
KernelStat statsOf(const std::vector<Ns>& sortedDurations);

} // namespace cnp
