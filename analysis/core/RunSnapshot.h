#pragma once
// One run as a request reads it (store/RunSnapshotReader.h), in one read transaction: its record, its
// attributes and the parts of its summaries the request asked for (RunSnapshotParts). A plain value; the
// metrics compute from it without knowing where it came from. Times in integer ns.
#include "core/GapTotals.h"
#include "core/RunRecord.h"
#include "core/RunSummaryTypes.h"
#include "core/SummaryRows.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

struct RunSnapshot {
    RunRecord run;
    std::map<std::string, std::string> attributes; // table run_attributes (log.*, plan.*, ...)
    std::vector<RankSummary> ranks;                // by rank
    std::vector<StepSummary> steps;                // every rank's steps, by (rank, index)
    std::vector<KernelStatRow> kernels;            // all ranks together, by total time descending
    // Kernel statistics of single ranks, for the ranks a request asked for (RunSnapshotParts::rankKernels).
    std::map<std::int32_t, std::vector<KernelStatRow>> rankKernels;
    GapTotals gapTotals; // the stored gaps (>= 10 us) summed, as RunSnapshotParts::longGapNs asked
    std::vector<BlockingSync> syncs;                // longest first
    std::vector<SummaryStreamRow> streams;          // by (rank, device, stream)
    std::optional<std::int32_t> mostRanksOnOneHost; // nullopt: no rank rows (or not asked for)

    // The value of attribute `key`, nullopt when unset.
    std::optional<std::string> attribute(const std::string& key) const {
        const auto it = attributes.find(key);
        return it == attributes.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

// Which parts of a run's snapshot a request reads; what is not asked for stays empty.
struct RunSnapshotParts {
    bool attributes = false, ranks = false, steps = false, kernels = false, gaps = false, syncs = false,
         hosts = false;
    std::vector<std::int32_t> rankKernels; // ranks whose own kernel statistics are read
    bool streams = false;
    Ns longGapNs = 0;            // `gaps`: the threshold of GapTotals' long sums
    std::size_t keepLongest = 0; // `gaps`: how many of the longest are kept whole

    static RunSnapshotParts all() { return {true, true, true, true, true, true, true, {}, true}; }
};

} // namespace cnp
