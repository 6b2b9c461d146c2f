#include "store/RunSummaryReader.h"

#include "core/InputError.h"
#include "store/SummaryTables.h"

#include <algorithm>
#include <map>

namespace cnp {

namespace {

// Orders (category, ns) pairs by exclusive priority, idle last.
void orderExclusive(ExclusiveNs& ex, CategoryOrder order) {
    auto rankOf = [&](const std::string& c) -> int {
        if (c == kIdleCategory)
            return 1 << 20;
        return order.indexOf(c);
    };
    for (auto& e : ex)
        (void)rankOf(e.first); // registers unknown categories before comparing
    std::sort(ex.begin(), ex.end(),
              [&](const auto& a, const auto& b) { return rankOf(a.first) < rankOf(b.first); });
}

BreakdownNs breakdownOf(const SummaryRankRow& r) {
    return {r.computeNs, r.communicationNs, r.overlapNs, r.memoryNs, r.idleNs, r.communicationTotalNs};
}

std::optional<Interval> windowOf(const std::optional<std::int64_t>& start,
                                 const std::optional<std::int64_t>& end) {
    if (!start)
        return std::nullopt;
    return Interval{*start, end.value_or(0)};
}

// The columns summary_rank gained after its first release; a row summarised before (orphan_count NULL)
// keeps 0s and the whole window as the launched window until `cnp reclassify` rebuilds it.
void readLaterRankColumns(const SummaryRankRow& row, RankSummary& r) {
    r.orphans.launchedWindow = r.window;
    r.orphans.launchedBreakdown = r.breakdown;
    if (!row.orphanCount)
        return;
    r.launch.graphLaunches = row.graphLaunchCount;
    r.launch.graphKernels = row.graphKernelCount;
    r.orphans.count = *row.orphanCount;
    r.orphans.busyNs = row.orphanNs;
    r.orphans.launchedWindow = windowOf(row.launchedWindowStartNs, row.launchedWindowEndNs);
    r.orphans.launchedBreakdown = {row.launchedComputeNs, row.launchedCommunicationNs,
                                   row.launchedOverlapNs, row.launchedMemoryNs,
                                   row.launchedIdleNs,    row.launchedCommunicationTotalNs};
}

RankSummary rankSummaryOf(const SummaryRankRow& row) {
    RankSummary r;
    r.rank = row.rank;
    r.counts = {row.kernelCount, row.memcpyCount,   row.memsetCount, row.runtimeCount,
                row.driverCount, row.cpuRangeCount, row.flowCount,   row.gpuAnnotationCount};
    r.kernelTimeNs = row.kernelTimeNs;
    r.window = windowOf(row.windowStartNs, row.windowEndNs);
    r.breakdown = breakdownOf(row);
    r.memcpyBytes = row.memcpyBytes;
    r.memcpyTimeNs = row.memcpyTimeNs;
    r.memsetTimeNs = row.memsetTimeNs;
    r.pageableMemcpyCount = row.pageableMemcpyCount;
    r.pageableMemcpyNs = row.pageableMemcpyNs;
    r.syncMemcpyCount = row.syncMemcpyCount;
    r.syncMemcpyNs = row.syncMemcpyNs;
    r.launch.launchedKernels = row.launchedKernelCount;
    r.launch.meanDelayNs = row.launchDelayMeanNs;
    r.launch.medianDelayNs = row.launchDelayMedianNs;
    r.launch.p95DelayNs = row.launchDelayP95Ns;
    r.launch.maxDelayNs = row.launchDelayMaxNs;
    r.launch.shorterThanLaunch = row.shortKernelCount;
    r.launch.meanLaunchCallNs = row.launchApiMeanNs;
    r.deviceSyncCount = row.deviceSyncCount;
    r.deviceSyncNs = row.deviceSyncNs;
    r.streamSyncCount = row.streamSyncCount;
    r.streamSyncNs = row.streamSyncNs;
    r.launchBoundIdleNs = row.launchBoundIdleNs;
    readLaterRankColumns(row, r);
    return r;
}

ExclusiveNs exclusiveOf(std::vector<SummaryExclusiveRow> rows, CategoryOrder order) {
    ExclusiveNs ex;
    ex.reserve(rows.size());
    for (auto& e : rows)
        ex.emplace_back(std::move(e.category), e.exclusiveNs);
    orderExclusive(ex, std::move(order));
    return ex;
}

} // namespace

RunSummaryReader::RunSummaryReader(const Workspace& ws, RunId runId, CategoryOrder order)
    : rows_(ws, runId), order_(std::move(order)) {
    if (!runHasSummaries(ws, runId))
        throw InputError(ws.path(),
                         "run id " + std::to_string(runId.value()) +
                             " has no summaries; run `cnp reclassify` on this workspace to build them");
}

std::vector<RankSummary> RunSummaryReader::ranks() const {
    std::vector<RankSummary> out;
    for (const SummaryRankRow& row : rows_.ranks())
        out.push_back(rankSummaryOf(row));
    for (auto& r : out)
        r.exclusive = exclusive(RankId(r.rank), SummaryRowReader::kWholeWindow);
    return out;
}

ExclusiveNs RunSummaryReader::exclusive(RankId rank, StepIndex step) const {
    return exclusiveOf(rows_.exclusive(rank, step), order_);
}

std::vector<StepSummary> RunSummaryReader::steps(std::int32_t rank) const {
    std::vector<StepSummary> out;
    for (SummaryStepRow& row : rows_.steps(rank)) {
        StepSummary s;
        s.rank = row.rank;
        s.index = row.stepIndex;
        s.name = std::move(row.name);
        s.cpuStart = row.cpuStartNs;
        s.cpuEnd = row.cpuEndNs;
        s.gpuStart = row.gpuStartNs;
        s.gpuEnd = row.gpuEndNs;
        s.breakdown = {row.computeNs, row.communicationNs, row.overlapNs,
                       row.memoryNs,  row.idleNs,          row.communicationTotalNs};
        s.deviceSyncCount = row.deviceSyncCount;
        s.launchBoundIdleNs = row.launchBoundIdleNs;
        out.push_back(std::move(s));
    }
    // All exclusive rows of the run in one query, distributed to their steps.
    std::map<std::pair<std::int32_t, std::int32_t>, std::vector<SummaryExclusiveRow>> ex;
    for (SummaryExclusiveRow& e : rows_.stepExclusive(rank))
        ex[{e.rank, e.stepIndex}].push_back(std::move(e));
    for (auto& s : out) {
        auto it = ex.find({s.rank, s.index});
        if (it != ex.end())
            s.exclusive = exclusiveOf(std::move(it->second), order_);
    }
    return out;
}

std::vector<KernelStatRow> RunSummaryReader::kernelStats(std::int32_t rank, std::size_t limit) const {
    std::vector<KernelStatRow> out;
    const Ns scopeTotal = rows_.kernelTotalNs(rank);
    for (SummaryKernelRow& k : rows_.kernels(rank, limit)) {
        KernelStatRow r;
        r.name = std::move(k.name);
        r.category = k.category ? std::move(*k.category) : std::string("other");
        r.count = k.count;
        r.totalNs = k.totalNs;
        r.meanNs = k.meanNs;
        r.medianNs = k.medianNs;
        r.minNs = k.minNs;
        r.maxNs = k.maxNs;
        r.stddevNs = k.stddevNs;
        r.percent =
            scopeTotal > 0 ? 100.0 * static_cast<double>(r.totalNs) / static_cast<double>(scopeTotal) : 0.0;
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

IdleGap idleGapOf(SummaryGapRow&& row) {
    IdleGap g;
    g.rank = row.rank;
    g.stepIndex = row.stepIndex;
    g.start = row.startNs;
    g.end = row.endNs;
    g.cpuState = std::move(row.cpuState);
    g.launches = row.launches;
    g.syncNs = row.syncNs;
    g.dataWaitNs = row.dataWaitNs;
    g.nextKernel = row.nextName ? std::move(*row.nextName) : std::string();
    g.nextLaunchNs = row.nextLaunchNs;
    return g;
}

} // namespace

std::vector<IdleGap> RunSummaryReader::idleGaps(Ns minLengthNs) const {
    std::vector<IdleGap> out;
    for (SummaryGapRow& row : rows_.gaps(minLengthNs))
        out.push_back(idleGapOf(std::move(row)));
    return out;
}

GapTotals RunSummaryReader::gapTotals(Ns longGapNs, std::size_t keepLongest) const {
    GapTotals totals(longGapNs, keepLongest);
    rows_.forEachRankGaps([&](std::vector<SummaryGapRow>&& gaps) {
        for (SummaryGapRow& row : gaps)
            totals.add(idleGapOf(std::move(row)));
    });
    return totals;
}

std::vector<BlockingSync> RunSummaryReader::blockingSyncs() const {
    std::vector<BlockingSync> out;
    for (SummarySyncRow& y : rows_.syncs())
        out.push_back({y.rank, y.stepIndex, std::move(y.api), y.startNs, y.endNs, y.dtohBytes});
    return out;
}

} // namespace cnp
