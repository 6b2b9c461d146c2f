#pragma once
// What the insights and the straggler evidence need of a run's GPU idle gaps, summed gap by gap so that a
// request holds these sums instead of every gap (a 1,024-rank run can store tens of millions of gaps).
// Pure: fed from the stored gaps (store/RunSummaryReader::gapTotals) or by hand in tests. Times in ns.
#include "core/RunSummaryTypes.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cnp {

class GapTotals {
public:
    // `longGapNs`: the threshold of the "long" sums (InsightOptions::idleGapNs); `keepLongest`: how many of
    // the longest gaps are kept whole (InsightOptions::maxEvidence).
    explicit GapTotals(Ns longGapNs = 0, std::size_t keepLongest = 0)
        : longGapNs_(longGapNs), keepLongest_(keepLongest) {}

    // O(log keepLongest) per gap.
    void add(const IdleGap& g);

    Ns longGapNs() const { return longGapNs_; }
    std::size_t keptLongest() const { return keepLongest_; }
    // Gaps at least longGapNs long: how many, their summed length, and that sum per cpu state.
    std::int64_t longCount() const { return longCount_; }
    Ns longTotalNs() const { return longTotal_; }
    const std::map<std::string, Ns>& longByState() const { return longByState_; }
    // The keepLongest longest gaps at least longGapNs long, longest first, then by (rank, start).
    std::vector<IdleGap> longest() const;
    // Gaps inside a step that a blocking synchronisation overlapped (sync_ns > 0), the data loader's
    // ("waiting-on-data") aside: the GPU idle time behind blocking syncs.
    std::int64_t behindSyncCount() const { return behindSyncCount_; }
    Ns behindSyncNs() const { return behindSyncNs_; }
    // Summed length of each rank's "waiting-on-data" gaps (ranks without one are absent).
    const std::map<std::int32_t, Ns>& dataWaitByRank() const { return dataWaitByRank_; }

private:
    void keep(const IdleGap& g);

    Ns longGapNs_;
    std::size_t keepLongest_;
    std::vector<IdleGap> longest_; // a heap whose top is the one to drop first
    std::int64_t longCount_ = 0, behindSyncCount_ = 0;
    Ns longTotal_ = 0, behindSyncNs_ = 0;
    std::map<std::string, Ns> longByState_;
    std::map<std::int32_t, Ns> dataWaitByRank_;
};

} // namespace cnp
