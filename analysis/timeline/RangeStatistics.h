#pragma once
// What happened on one rank inside a time range of the timeline: the temporal breakdown and
// per-category exclusive time computed by the analysis library (metrics/Breakdown.h,
// computeBreakdown) on exactly the rank's GPU activities (kernels, memcpys, memsets) held by the
// model, plus the kernels with most time inside the range. O(activities overlapping the range).
#include "metrics/Breakdown.h"
#include "timeline/TimelineModel.h"

#include <string>
#include <vector>

namespace cnp::timeline {

struct RangeKernel {
    std::string name, category;
    std::int64_t count = 0; // kernels overlapping the range
    Ns timeInRange = 0;     // their durations clipped to the range
};

struct RangeStatistics {
    std::int32_t rank = 0;
    Interval window;
    CategoryOrder order; // names of breakdown.exclusive
    WindowBreakdown breakdown;
    std::int64_t activities = 0;
    std::vector<RangeKernel> topKernels; // by timeInRange descending, then name
};

// `computePriority`: CategoryRules::computePriority() of the workspace (the same order the analysis
// uses for exclusive time).
RangeStatistics computeRangeStatistics(const TimelineModel& model, std::int32_t rank, Interval window,
                                       const std::vector<std::string>& computePriority,
                                       std::size_t topN = 10);

} // namespace cnp::timeline
