#pragma once
// GPU work launched before the capture began ("orphan" work, docs/metrics.md, "Windows") of a whole run:
// the per-rank OrphanStats of RunSummaryReader::ranks() (the figures `cnp stats` prints) added up.
#include "core/RunSummaryTypes.h"

#include <cstdint>
#include <vector>

namespace cnp {

struct OrphanTotals {
    std::int64_t count = 0;        // orphan activities (kernels, copies, memsets) over all ranks
    Ns busyNs = 0;                 // sum of their durations
    std::int32_t ranksWithAny = 0; // ranks with at least one
    std::int32_t ranks = 0;        // ranks summed
};

// O(ranks).
OrphanTotals orphanTotals(const std::vector<RankSummary>& ranks);

} // namespace cnp
