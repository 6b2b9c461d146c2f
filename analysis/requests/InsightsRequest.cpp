#include "requests/InsightsRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

namespace cnp {

namespace {

// `key` (a name or an id) is resolved inside the read transaction the snapshot is read in.
template <class Key>
std::vector<Insight> computeInsightsOf(const Workspace& ws, const Key& key, const InsightOptions& options) {
    const auto snapshot = readSnapshot(ws);
    const RunRecord run = ws.runOrThrow(key);
    const CategoryOrder order = categoryOrderOf(categoryRulesOf(ws));
    RunSnapshotParts parts = RunSnapshotParts::all();
    parts.longGapNs = options.idleGapNs;
    parts.keepLongest = options.maxEvidence;
    RunSnapshot s = readRunSnapshot(ws, run, order, parts);
    // The short-kernel insight lists the short kernels of the ranks it flags: only those ranks' own
    // kernel statistics are read.
    RunSnapshotParts evidence;
    evidence.rankKernels = shortKernelRanks(s.ranks, options);
    if (!evidence.rankKernels.empty())
        s.rankKernels = readRunSnapshot(ws, run, order, evidence).rankKernels;
    return computeInsights(s, options);
}

} // namespace

std::vector<Insight> computeInsights(const Workspace& ws, const std::string& runName,
                                     const InsightOptions& options) {
    return computeInsightsOf(ws, runName, options);
}

std::vector<Insight> computeInsights(const Workspace& ws, RunId runId, const InsightOptions& options) {
    return computeInsightsOf(ws, runId, options);
}

std::vector<EnvironmentCheck> checkEnvironment(const Workspace& ws, const RunRecord& run) {
    RunSnapshotParts hosts;
    hosts.hosts = true;
    return checkEnvironment(readRunSnapshot(ws, run, CategoryOrder{}, hosts));
}

} // namespace cnp
