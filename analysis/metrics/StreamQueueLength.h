#pragma once
// Launch queue length of one GPU stream over time (docs/metrics.md, "Streams"): the number of operations
// (kernels, copies, memsets) whose launch call has begun and that have not yet started on the GPU. +1 at
// the launch call's start, -1 at the operation's start; at equal times the starts come first, so a queue
// never counts an operation that already left it. Only operations whose launch call is in the trace are
// counted (orphans and unlaunched work have no enqueue time); a launch stamped after its operation's
// start (clock skew) is taken as launched at the start. Pure: no I/O.
#include "core/Interval.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace cnp {

class StreamQueueLength {
public:
    struct Operation {
        Ns launch = 0; // start of its launch call
        Ns start = 0;  // its start on the GPU
    };
    struct Stats {
        std::int64_t max = 0; // the longest queue
        double mean = 0;      // time-weighted over [first launch, last start]; 0 when that span is empty
        std::int64_t operations = 0;
    };

    // The operations of one stream, in any order. O(n log n).
    explicit StreamQueueLength(const std::vector<Operation>& ops);

    // The step function: (time, queue length from that time on), one point per time at which it changes,
    // in time order; the last point is 0. Empty without operations.
    const std::vector<std::pair<Ns, std::int64_t>>& series() const { return series_; }
    const Stats& stats() const { return stats_; }

private:
    std::vector<std::pair<Ns, std::int64_t>> series_;
    Stats stats_;
};

} // namespace cnp
