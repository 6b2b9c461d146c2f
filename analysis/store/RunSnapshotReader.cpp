#include "store/RunSnapshotReader.h"

#include "store/RankQueries.h"
#include "store/RunSummaryReader.h"
#include "store/WorkspaceTransactions.h"

namespace cnp {

namespace {

bool needsSummaries(const RunSnapshotParts& p) {
    return p.ranks || p.steps || p.kernels || p.gaps || p.syncs || p.streams || !p.rankKernels.empty();
}

void readSummaries(const Workspace& ws, const CategoryOrder& order, const RunSnapshotParts& parts,
                   RunSnapshot& s) {
    const RunSummaryReader reader(ws, s.run.id, order);
    if (parts.ranks)
        s.ranks = reader.ranks();
    if (parts.steps)
        s.steps = reader.steps();
    if (parts.kernels)
        s.kernels = reader.kernelStats(-1);
    for (std::int32_t rank : parts.rankKernels)
        s.rankKernels[rank] = reader.kernelStats(rank);
    if (parts.gaps)
        s.gapTotals = reader.gapTotals(parts.longGapNs, parts.keepLongest);
    if (parts.syncs)
        s.syncs = reader.blockingSyncs();
    if (parts.streams)
        s.streams = reader.streams();
}

} // namespace

RunSnapshot readRunSnapshot(const Workspace& ws, const RunRecord& run, const CategoryOrder& order,
                            const RunSnapshotParts& parts) {
    const auto snapshot = readSnapshot(ws);
    RunSnapshot s;
    s.run = run;
    if (parts.attributes)
        s.attributes = ws.runAttributes(run.id);
    if (parts.hosts)
        s.mostRanksOnOneHost = RankQueries(ws).mostRanksOnOneHost(run.id);
    if (needsSummaries(parts))
        readSummaries(ws, order, parts, s);
    return s;
}

} // namespace cnp
