#pragma once
// Read side of the summary tables written by metrics/RunSummaries (docs/schema.md, "Summary tables"),
// into the plain values of core/RunSummaryTypes.h. Every query reads precomputed rows only
// (O(ranks + steps + kernel names)); raw events are never scanned. Times in integer ns.
#include "core/CategoryOrder.h"
#include "core/GapTotals.h"
#include "core/RunSummaryTypes.h"
#include "store/SummaryRowReader.h"
#include "store/Workspace.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

class RunSummaryReader {
public:
    // `order`: the exclusive-priority order of the request's category rules (requests/CategoryRulesOf.h);
    // exclusive rows come back in it, "idle" last. Throws InputError when the run has no summaries (a
    // workspace written before they existed).
    RunSummaryReader(const Workspace& ws, RunId runId, CategoryOrder order);
    std::vector<RankSummary> ranks() const;
    // All steps of all ranks ordered by (rank, index); rank >= 0 restricts to one rank.
    std::vector<StepSummary> steps(std::int32_t rank = -1) const;
    // Kernel statistics of one rank, or of all ranks together (rank = -1), by total time descending.
    // limit 0 = all rows.
    std::vector<KernelStatRow> kernelStats(std::int32_t rank = -1, std::size_t limit = 0) const;
    // Every idle gap at least minLengthNs long (gaps under 10 us are never stored), longest first.
    std::vector<IdleGap> idleGaps(Ns minLengthNs) const;
    // The stored gaps summed (core/GapTotals.h), rank by rank: memory one rank's gaps. O(gaps).
    GapTotals gapTotals(Ns longGapNs, std::size_t keepLongest) const;
    // Every CPU-blocking stream/event synchronisation inside a step, longest first.
    std::vector<BlockingSync> blockingSyncs() const;
    // Every GPU stream of every rank with its work and launch queue, by (rank, device, stream); empty for a
    // run summarised before summary_stream existed.
    std::vector<SummaryStreamRow> streams() const { return rows_.streams(); }

private:
    ExclusiveNs exclusive(RankId rank, StepIndex step) const;
    SummaryRowReader rows_;
    CategoryOrder order_;
};

} // namespace cnp
