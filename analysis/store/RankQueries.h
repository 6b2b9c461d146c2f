#pragma once
// Typed reads of table `ranks` (docs/schema.md): one row per rank of a run. O(ranks of the run).
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cnp {

class Workspace;

class RankQueries {
public:
    explicit RankQueries(const Workspace& ws) : ws_(ws) {}

    // The run's ranks in rank order. JSON columns (gpu_names, gpu_uuids) that are malformed read as empty;
    // non-string elements are left out.
    std::vector<RankInfo> ranksOfRun(RunId runId) const;
    // The run's rank numbers, ascending.
    std::vector<std::int32_t> rankNumbers(RunId runId) const;
    // The most ranks the run has on one host (ranks without a recorded host count as one host "");
    // nullopt when the run has no rank rows.
    std::optional<std::int32_t> mostRanksOnOneHost(RunId runId) const;

private:
    const Workspace& ws_;
};

} // namespace cnp
