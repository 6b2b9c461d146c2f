#include "requests/RunDiffRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

namespace cnp {

namespace {

// The runs (by name or by id) are resolved inside the read transaction the snapshots are read in.
template <class Key>
RunDiffResult diffRunsBy(const Workspace& ws, const Key& runA, const Key& runB,
                         const RunDiffOptions& options) {
    const auto snapshot = readSnapshot(ws);
    const RunRecord a = ws.runOrThrow(runA), b = ws.runOrThrow(runB);
    const CategoryOrder order = categoryOrderOf(categoryRulesOf(ws));
    RunSnapshotParts parts;
    parts.kernels = parts.steps = true;
    return diffRuns(readRunSnapshot(ws, a, order, parts), readRunSnapshot(ws, b, order, parts), options);
}

} // namespace

RunDiffResult diffRuns(const Workspace& ws, const std::string& runA, const std::string& runB,
                       const RunDiffOptions& options) {
    return diffRunsBy(ws, runA, runB, options);
}

RunDiffResult diffRuns(const Workspace& ws, RunId runA, RunId runB, const RunDiffOptions& options) {
    return diffRunsBy(ws, runA, runB, options);
}

} // namespace cnp
