#pragma once
// The launch queue length of every GPU stream as counter lanes of the timeline (docs/metrics.md,
// "Streams"; metrics/StreamQueueLength.h): collects each operation's (rank, device, stream, correlation,
// start) and each launch call's (rank, correlation, start) in any order, then adds one counter row
// "Queue · stream N" per (rank, device, stream) with queued operations to a TimelineBuilder.
// Memory: 32 bytes per GPU operation and per launch call with a correlation id; O(n log n).
#include "core/Interval.h"
#include "timeline/TimelineBuilder.h"

#include <cstdint>
#include <vector>

namespace cnp::timeline {

class QueueLengthLanes {
public:
    // A kernel, copy or memset (correlation 0: never queued, ignored).
    void addOperation(std::int32_t rank, std::int32_t device, std::int64_t stream, std::int64_t correlation,
                      Ns start);
    // A CUDA API call that may have launched an operation (its correlation id; 0 ignored).
    void addLaunch(std::int32_t rank, std::int64_t correlation, Ns start);
    // Adds the counter samples (one per change of the length) to `b` and forgets what was collected.
    void emit(TimelineBuilder& b);

private:
    struct Op {
        std::int32_t rank, device;
        std::int64_t stream, correlation;
        Ns start;
    };
    struct Launch {
        std::int32_t rank;
        std::int64_t correlation;
        Ns start;
    };
    std::vector<Op> ops_;
    std::vector<Launch> launches_;
};

} // namespace cnp::timeline
