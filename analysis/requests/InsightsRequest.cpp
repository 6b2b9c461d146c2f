#include "requests/InsightsRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

namespace cnp {

std::vector<Insight> computeInsights(const Workspace& ws, const std::string& runName,
                                     const InsightOptions& options) {
    const auto snapshot = readSnapshot(ws);
    const RunRecord run = ws.runOrThrow(runName);
    const CategoryOrder order = categoryOrderOf(categoryRulesOf(ws));
    RunSnapshot s = readRunSnapshot(ws, run, order, RunSnapshotParts::all());
    // The short-kernel insight lists the short kernels of the ranks it flags: only those ranks' own
    // kernel statistics are read.
    RunSnapshotParts evidence;
    evidence.rankKernels = shortKernelRanks(s.ranks, options);
    if (!evidence.rankKernels.empty())
        s.rankKernels = readRunSnapshot(ws, run, order, evidence).rankKernels;
    return computeInsights(s, options);
}

std::vector<EnvironmentCheck> checkEnvironment(const Workspace& ws, const RunRecord& run) {
    RunSnapshotParts hosts;
    hosts.hosts = true;
    return checkEnvironment(readRunSnapshot(ws, run, CategoryOrder{}, hosts));
}

} // namespace cnp
