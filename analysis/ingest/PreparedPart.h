#pragma once
// One part of a run (the ranks of one trace file) made ready for the store on a reader thread: normalised
// (events sorted by (rank, start), CPU nesting depth), kernels categorised, steps detected, its summary
// rows and its timeline overview computed. The run's all-rank kernel statistics go to a shared
// KernelStatsPool instead of the part's rows. Memory: the part's events (~100 bytes each) plus its
// summary rows and overview, freed when the writer has stored it.
#include "core/TraceData.h"
#include "metrics/CategoryRules.h"
#include "metrics/KernelStatsPool.h"
#include "metrics/RunSummaries.h"
#include "metrics/StepDetector.h"
#include "store/SummaryRowBuffers.h"
#include "timeline/TimelineModel.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct PreparedPart {
    TraceData trace;
    StepScheme steps;
    SummaryRowBuffers summaries;
    timeline::TimelineModel overview;
    std::set<std::string> truncatedNames;                // names cut at intake (core/NameBound.h)
    std::vector<std::pair<std::string, double>> seconds; // CPU-thread seconds per preparation phase
};

// Everything a reader does after import and rank assignment. `pool` receives the part's kernel groups
// (it is shared by the readers: KernelStatsPool::add is thread-safe). O(n log n) in the part's events.
PreparedPart preparePart(TraceData&& part, const CategoryRules& rules, const StepPattern& steps,
                         KernelStatsPool& pool, const SummaryOptions& summary = {});

} // namespace cnp
