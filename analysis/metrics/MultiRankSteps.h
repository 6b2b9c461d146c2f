#pragma once
// The steps of a multi-rank run (docs/metrics.md, "Steps"): step i's time is the longest window of step i
// over the ranks.
#include "core/RunSummaryTypes.h"

#include <vector>

namespace cnp {

// Groups per-rank steps by index into multi-rank steps (only indexes with GPU work on every rank that
// has steps). O(steps log steps).
std::vector<MultiRankStep> aggregateSteps(const std::vector<StepSummary>& steps);

} // namespace cnp
