#include "requests/PooledKernelsRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

namespace cnp {

PooledKernels poolKernels(const Workspace& ws, const std::vector<RunId>& runIds) {
    const auto snapshot = readSnapshot(ws);
    const CategoryOrder order = categoryOrderOf(categoryRulesOf(ws));
    RunSnapshotParts parts;
    parts.ranks = parts.steps = parts.kernels = true;
    std::vector<RunSnapshot> runs;
    for (const auto id : runIds) {
        RunRecord run;
        run.id = id;
        runs.push_back(readRunSnapshot(ws, run, order, parts));
    }
    return poolKernels(runs);
}

} // namespace cnp
