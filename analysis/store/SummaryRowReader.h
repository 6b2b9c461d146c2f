#pragma once
// Typed reads of one run's summary rows (docs/schema.md, "Summary tables"). Every column is read into
// its core/SummaryRows.h member through the table description (store/Tables.h); `*_id` columns come
// back as their text. Reads precomputed rows only: O(rows read). Order of each result as documented.
#include "core/Ids.h"
#include "core/SummaryRows.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace cnp {

class Workspace;

class SummaryRowReader {
public:
    SummaryRowReader(const Workspace& ws, RunId runId) : ws_(ws), runId_(runId) {}

    // Every summary_rank row, by rank. Columns an older table lacks read as NULL (0 / nullopt).
    std::vector<SummaryRankRow> ranks() const;
    // The step index summary_exclusive stores the whole measured window under.
    static constexpr StepIndex kWholeWindow{-1};
    // The summary_exclusive rows of (rank, step) (kWholeWindow: the whole window), in storage order; rows
    // whose category is not in `strings` are left out.
    std::vector<SummaryExclusiveRow> exclusive(RankId rank, StepIndex step) const;
    // The summary_exclusive rows of every step (step_index >= 0) of `rank`, or of every rank (rank < 0).
    std::vector<SummaryExclusiveRow> stepExclusive(std::int32_t rank) const;
    // summary_step rows of `rank` (every rank when rank < 0), by (rank, step_index).
    std::vector<SummaryStepRow> steps(std::int32_t rank) const;
    // Sum of total_ns over the summary_kernel rows of `rank` (-1: the all-ranks rows).
    std::int64_t kernelTotalNs(std::int32_t rank) const;
    // summary_kernel rows of `rank` (-1: all ranks together) whose name is in `strings`, by total_ns
    // descending then name; at most `limit` rows (0: all).
    std::vector<SummaryKernelRow> kernels(std::int32_t rank, std::size_t limit) const;
    // The run's gaps (summary_gap_pack, or the summary_gap rows of a run summarised before it) at least
    // `minLengthNs` long, longest first, then by (rank, start). O(gaps log gaps); memory: every gap.
    std::vector<SummaryGapRow> gaps(std::int64_t minLengthNs) const;
    // Calls `visit` with each rank's gaps in start order, rank by rank: memory one rank's gaps (a run
    // summarised before summary_gap_pack: every gap, read at once). O(gaps).
    void forEachRankGaps(const std::function<void(std::vector<SummaryGapRow>&&)>& visit) const;
    // summary_sync rows, longest first, then by (rank, start); none when the table does not exist.
    std::vector<SummarySyncRow> syncs() const;
    // Calls `visit` with each summary_sync row in storage order (no sort: what copies them elsewhere, whose
    // readers order them, needs none); none when the table does not exist. O(rows); memory one row.
    void forEachSync(const std::function<void(const SummarySyncRow&)>& visit) const;
    // summary_stream rows by (rank, device, stream); none when the table does not exist (a workspace
    // summarised before it, until `cnp reclassify`).
    std::vector<SummaryStreamRow> streams() const;

private:
    std::vector<SummaryGapRow> storedGapRows(std::int64_t minLengthNs) const;

    const Workspace& ws_;
    RunId runId_;
};

} // namespace cnp
