#include "metrics/RunSummaryReader.h"

#include "core/InputError.h"
#include "metrics/Breakdown.h"
#include "metrics/CategoryRules.h"
#include "metrics/RunSummaries.h"
#include "store/Tables.h"

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

} // namespace

RunSummaryReader::RunSummaryReader(const Workspace& ws, std::int64_t runId)
    : ws_(ws), runId_(runId),
      order_(CategoryOrder::fromComputePriority(CategoryRules::forWorkspace(ws).computePriority())) {
    const auto n =
        queryInt(ws.db(), "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name='summary_rank'");
    bool ok = n > 0;
    if (ok) {
        Statement st(ws.db(), "SELECT COUNT(*) FROM summary_rank WHERE run_id = ?");
        st.bind(1, runId);
        ok = st.step() && st.i64(0) > 0;
    }
    if (!ok)
        throw InputError(ws.path(),
                         "run id " + std::to_string(runId) +
                             " has no summaries; run `cnp reclassify` on this workspace to build them");
}

std::vector<RankSummary> RunSummaryReader::ranks() const {
    std::vector<RankSummary> out;
    // The first release's columns: rank .. stream_sync_ns, in table order.
    const auto& t = schema::kSummaryRank;
    Statement st(ws_.db(), "SELECT " + schema::columnList(t, 1, t.indexOf("stream_sync_ns")) +
                               " FROM summary_rank WHERE run_id = ? ORDER BY rank");
    st.bind(1, runId_);
    while (st.step()) {
        RankSummary r;
        int c = 0;
        r.rank = st.i32(c++);
        r.counts.kernel = st.i64(c++);
        r.counts.memcpy = st.i64(c++);
        r.counts.memset = st.i64(c++);
        r.counts.runtime = st.i64(c++);
        r.counts.driver = st.i64(c++);
        r.counts.cpuRange = st.i64(c++);
        r.counts.flow = st.i64(c++);
        r.counts.gpuAnnotation = st.i64(c++);
        r.kernelTimeNs = st.i64(c++);
        if (!st.isNull(c))
            r.window = Interval{st.i64(c), st.i64(c + 1)};
        c += 2;
        r.breakdown.compute = st.i64(c++);
        r.breakdown.communication = st.i64(c++);
        r.breakdown.overlap = st.i64(c++);
        r.breakdown.memory = st.i64(c++);
        r.breakdown.idle = st.i64(c++);
        r.breakdown.communicationTotal = st.i64(c++);
        r.memcpyBytes = st.i64(c++);
        r.memcpyTimeNs = st.i64(c++);
        r.memsetTimeNs = st.i64(c++);
        r.pageableMemcpyCount = st.i64(c++);
        r.pageableMemcpyNs = st.i64(c++);
        r.syncMemcpyCount = st.i64(c++);
        r.syncMemcpyNs = st.i64(c++);
        r.launch.launchedKernels = st.i64(c++);
        r.launch.meanDelayNs = st.f64(c++);
        r.launch.medianDelayNs = st.i64(c++);
        r.launch.p95DelayNs = st.i64(c++);
        r.launch.maxDelayNs = st.i64(c++);
        r.launch.shorterThanLaunch = st.i64(c++);
        r.launch.meanLaunchCallNs = st.f64(c++);
        r.deviceSyncCount = st.i64(c++);
        r.deviceSyncNs = st.i64(c++);
        r.streamSyncCount = st.i64(c++);
        r.streamSyncNs = st.i64(c++);
        out.push_back(std::move(r));
    }
    for (auto& r : out)
        r.exclusive = exclusive(r.rank, -1);
    readLaterRankColumns(out);
    return out;
}

// Columns summary_rank gained after its first release; a workspace summarised before keeps 0s and the
// whole window as the launched window until `cnp reclassify` rebuilds it.
void RunSummaryReader::readLaterRankColumns(std::vector<RankSummary>& ranks) const {
    for (auto& r : ranks) {
        r.orphans.launchedWindow = r.window;
        r.orphans.launchedBreakdown = r.breakdown;
    }
    const auto& t = schema::kSummaryRank;
    if (!hasColumn(ws_, t.name, t.columns.back().name))
        return;
    // rank, then graph_launch_count .. launched_communication_total_ns in table order.
    Statement st(ws_.db(),
                 "SELECT rank, " + schema::columnList(t, t.indexOf("graph_launch_count")) +
                     " FROM summary_rank WHERE run_id = ? AND orphan_count IS NOT NULL ORDER BY rank");
    st.bind(1, runId_);
    while (st.step()) {
        auto r = std::find_if(ranks.begin(), ranks.end(),
                              [&](const RankSummary& x) { return x.rank == st.i32(0); });
        if (r == ranks.end())
            continue;
        r->launch.graphLaunches = st.i64(1);
        r->launch.graphKernels = st.i64(2);
        r->orphans.count = st.i64(3);
        r->orphans.busyNs = st.i64(4);
        r->orphans.launchedWindow.reset();
        if (!st.isNull(5))
            r->orphans.launchedWindow = Interval{st.i64(5), st.i64(6)};
        r->orphans.launchedBreakdown = {st.i64(7), st.i64(8), st.i64(9), st.i64(10), st.i64(11), st.i64(12)};
    }
}

ExclusiveNs RunSummaryReader::exclusive(std::int32_t rank, std::int32_t step) const {
    ExclusiveNs ex;
    Statement st(ws_.db(), "SELECT s.value, e.exclusive_ns FROM summary_exclusive e JOIN strings s ON "
                           "s.id = e.category_id WHERE e.run_id = ? AND e.rank = ? AND e.step_index = ?");
    st.bind(1, runId_).bind(2, rank).bind(3, step);
    while (st.step())
        ex.emplace_back(st.text(0), st.i64(1));
    orderExclusive(ex, order_);
    return ex;
}

std::vector<StepSummary> RunSummaryReader::steps(std::int32_t rank) const {
    std::vector<StepSummary> out;
    // rank, step_index, the name, then cpu_start_ns .. device_sync_count in table order.
    const auto& t = schema::kSummaryStep;
    Statement st(ws_.db(),
                 "SELECT p.rank, p.step_index, s.value, " +
                     schema::columnList(t, t.indexOf("cpu_start_ns"), SIZE_MAX, "p.") +
                     " FROM summary_step p LEFT JOIN strings s ON s.id = p.name_id WHERE p.run_id = ? "
                     "AND (? < 0 OR p.rank = ?) ORDER BY p.rank, p.step_index");
    st.bind(1, runId_).bind(2, rank).bind(3, rank);
    while (st.step()) {
        StepSummary s;
        s.rank = st.i32(0);
        s.index = st.i32(1);
        s.name = st.isNull(2) ? std::string() : st.text(2);
        s.cpuStart = st.i64(3);
        s.cpuEnd = st.i64(4);
        s.gpuStart = st.i64(5);
        s.gpuEnd = st.i64(6);
        s.breakdown = {st.i64(7), st.i64(8), st.i64(9), st.i64(10), st.i64(11), st.i64(12)};
        s.deviceSyncCount = st.i64(13);
        out.push_back(std::move(s));
    }
    // All exclusive rows of the run in one query, distributed to their steps.
    std::map<std::pair<std::int32_t, std::int32_t>, ExclusiveNs> ex;
    Statement es(ws_.db(),
                 "SELECT e.rank, e.step_index, s.value, e.exclusive_ns FROM summary_exclusive e JOIN "
                 "strings s ON s.id = e.category_id WHERE e.run_id = ? AND e.step_index >= 0 AND "
                 "(? < 0 OR e.rank = ?)");
    es.bind(1, runId_).bind(2, rank).bind(3, rank);
    while (es.step())
        ex[{es.i32(0), es.i32(1)}].emplace_back(es.text(2), es.i64(3));
    for (auto& s : out) {
        auto it = ex.find({s.rank, s.index});
        if (it != ex.end()) {
            s.exclusive = std::move(it->second);
            orderExclusive(s.exclusive, order_);
        }
    }
    return out;
}

std::vector<KernelStatRow> RunSummaryReader::kernelStats(std::int32_t rank, std::size_t limit) const {
    std::vector<KernelStatRow> out;
    Ns scopeTotal = 0;
    {
        Statement t(ws_.db(),
                    "SELECT COALESCE(SUM(total_ns), 0) FROM summary_kernel WHERE run_id = ? AND rank = ?");
        t.bind(1, runId_).bind(2, rank);
        if (t.step())
            scopeTotal = t.i64(0);
    }
    // The name, the category, then count .. stddev_ns in table order.
    const auto& t = schema::kSummaryKernel;
    std::string sql =
        "SELECT n.value, c.value, " + schema::columnList(t, t.indexOf("count"), SIZE_MAX, "k.") +
        " FROM summary_kernel k JOIN strings n ON n.id = k.name_id LEFT JOIN strings c ON "
        "c.id = k.category_id WHERE k.run_id = ? AND k.rank = ? ORDER BY k.total_ns DESC, n.value";
    if (limit > 0)
        sql += " LIMIT " + std::to_string(limit);
    Statement st(ws_.db(), sql);
    st.bind(1, runId_).bind(2, rank);
    while (st.step()) {
        KernelStatRow r;
        r.name = st.text(0);
        r.category = st.isNull(1) ? std::string("other") : st.text(1);
        r.count = st.i64(2);
        r.totalNs = st.i64(3);
        r.meanNs = st.f64(4);
        r.medianNs = st.f64(5);
        r.minNs = st.i64(6);
        r.maxNs = st.i64(7);
        r.stddevNs = st.f64(8);
        r.percent =
            scopeTotal > 0 ? 100.0 * static_cast<double>(r.totalNs) / static_cast<double>(scopeTotal) : 0.0;
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<IdleGap> RunSummaryReader::idleGaps(Ns minLengthNs) const {
    std::vector<IdleGap> out;
    // rank .. data_wait_ns in table order, the next kernel's name, next_launch_ns.
    const auto& t = schema::kSummaryGap;
    Statement st(ws_.db(), "SELECT " + schema::columnList(t, 1, t.indexOf("data_wait_ns"), "g.") +
                               ", s.value, g.next_launch_ns FROM summary_gap g LEFT JOIN strings s ON "
                               "s.id = g.next_name_id WHERE g.run_id = ? AND g.end_ns - g.start_ns >= ? "
                               "ORDER BY g.end_ns - g.start_ns DESC, g.rank, g.start_ns");
    st.bind(1, runId_).bind(2, minLengthNs);
    while (st.step()) {
        IdleGap g;
        g.rank = st.i32(0);
        g.stepIndex = st.i32(1);
        g.start = st.i64(2);
        g.end = st.i64(3);
        g.cpuState = st.text(4);
        g.launches = st.i64(5);
        g.syncNs = st.i64(6);
        g.dataWaitNs = st.i64(7);
        g.nextKernel = st.isNull(8) ? std::string() : st.text(8);
        g.nextLaunchNs = st.i64(9);
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<BlockingSync> RunSummaryReader::blockingSyncs() const {
    std::vector<BlockingSync> out;
    if (queryInt(ws_.db(), "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name='summary_sync'") ==
        0)
        return out;
    // rank, step_index, the API's name, then start_ns .. dtoh_bytes in table order.
    const auto& t = schema::kSummarySync;
    Statement st(ws_.db(),
                 "SELECT " + schema::columnList(t, 1, 2, "y.") + ", s.value, " +
                     schema::columnList(t, t.indexOf("start_ns"), SIZE_MAX, "y.") +
                     " FROM summary_sync y LEFT JOIN strings s ON s.id = y.name_id WHERE y.run_id = ? "
                     "ORDER BY y.end_ns - y.start_ns DESC, y.rank, y.start_ns");
    st.bind(1, runId_);
    while (st.step())
        out.push_back({st.i32(0), st.i32(1), st.isNull(2) ? std::string() : st.text(2), st.i64(3), st.i64(4),
                       st.i64(5)});
    return out;
}

std::vector<MultiRankStep> aggregateSteps(const std::vector<StepSummary>& steps) {
    std::map<std::int32_t, std::vector<const StepSummary*>> byIndex;
    std::map<std::int32_t, int> stepRanks;
    for (const auto& s : steps) {
        stepRanks[s.rank] = 1;
        if (s.hasGpu())
            byIndex[s.index].push_back(&s);
    }
    const auto rankCount = stepRanks.size();
    std::vector<MultiRankStep> out;
    for (const auto& [index, v] : byIndex) {
        if (v.size() != rankCount)
            continue; // a step some rank has no GPU work for: not comparable across ranks
        MultiRankStep m;
        m.index = index;
        m.ranks = static_cast<std::int32_t>(v.size());
        Ns minLen = v.front()->length(), minEnd = v.front()->gpuEnd, maxEnd = v.front()->gpuEnd;
        m.slowest = v.front();
        m.lastToFinishRank = v.front()->rank;
        m.mostExposedCommRank = v.front()->rank;
        m.mostExposedCommNs = v.front()->breakdown.communication;
        for (const auto* s : v) {
            if (s->length() > m.slowest->length())
                m.slowest = s;
            minLen = std::min(minLen, s->length());
            if (s->gpuEnd > maxEnd) {
                maxEnd = s->gpuEnd;
                m.lastToFinishRank = s->rank;
            }
            minEnd = std::min(minEnd, s->gpuEnd);
            if (s->breakdown.communication > m.mostExposedCommNs) {
                m.mostExposedCommNs = s->breakdown.communication;
                m.mostExposedCommRank = s->rank;
            }
        }
        m.name = m.slowest->name;
        m.stepTimeNs = m.slowest->length();
        m.slowestRank = m.slowest->rank;
        m.skewNs = m.stepTimeNs - minLen;
        m.finishSpreadNs = maxEnd - minEnd;
        out.push_back(m);
    }
    return out;
}

} // namespace cnp
