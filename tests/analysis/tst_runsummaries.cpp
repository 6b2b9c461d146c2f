// Summaries built at ingest on the real 2-rank NCCL fixture (tests/data/hta/trace_filter: two ranks of one
// job) and rebuilt by re-classification. Expected values computed per rank from the JSON with an
// independent python script at authoring time (ns = round(us*1000) in exact decimal arithmetic; unions per
// docs/metrics.md; step
// windows via the correlation ids of the cuda_runtime calls inside each ProfilerStep range).
#include "KernelRowBits.h"
#include "TestPaths.h"
#include "store/MetaKeys.h"
#include "tst_analysis_synthetic.h"

#include "metrics/KernelStatsPool.h"
#include "metrics/MultiRankSteps.h"
#include "metrics/RunSummaries.h"
#include "requests/WorkspaceCategories.h"

#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cmath>
#include <thread>

using namespace cnp;
using namespace cnp::testing;

namespace {

// Keeps the summary_kernel rows, drops the others.
class KernelRows : public SummaryRowSink {
public:
    std::vector<SummaryKernelRow> rows;
    void add(const SummaryRankRow&) override {}
    void add(const SummaryStepRow&) override {}
    void add(const SummaryExclusiveRow&) override {}
    void add(const SummaryKernelRow& r) override { rows.push_back(r); }
    void add(const SummaryGapRow&) override {}
    void add(const SummarySyncRow&) override {}
};

// The events of one rank of `t` (a part of the run, as one trace file's ranks would be).
TraceData onlyRank(const TraceData& t, std::int32_t rank) {
    TraceData p;
    p.info = t.info;
    p.strings = t.strings;
    auto keep = [rank](const auto& from, auto& to) {
        for (const auto& e : from)
            if (e.rank == rank)
                to.push_back(e);
    };
    keep(t.ranks, p.ranks);
    keep(t.kernels, p.kernels);
    keep(t.memcpys, p.memcpys);
    keep(t.memsets, p.memsets);
    keep(t.apiCalls, p.apiCalls);
    keep(t.cpuRanges, p.cpuRanges);
    keep(t.gpuAnnotations, p.gpuAnnotations);
    keep(t.flows, p.flows);
    keep(t.counters, p.counters);
    keep(t.steps, p.steps);
    return p;
}

// Range rules (docs/metrics.md, "Categories"): kernels launched inside "checkpoint" ranges are recompute,
// inside "optim" ranges optimizer. Three ranks, launch calls on thread 1 like the ranges (times in ns):
//   rank 0: checkpoint [0, 1000), optim [2000, 3000); gemm_x [100, 130) launched at 50 -> recompute,
//           gemm_x [2200, 2240) launched at 2150 -> optimizer (the group keeps its first: recompute),
//           elt_y [2100, 2107) launched at 2050 -> optimizer
//   rank 1: checkpoint [0, 1000); elt_y [100, 111) launched at 50 -> recompute; gemm_x [1500, 1520)
//           launched at 1450 -> gemm (by name)
//   rank 2: gemm_x [100, 125) launched at 50 -> gemm
TraceData rangeCategoryTrace(const CategoryRules& rules) {
    SyntheticTrace s("split", "", 3);
    s.range(0, 1000, "checkpoint", 0).range(2000, 3000, "optim", 0).range(0, 1000, "checkpoint", 1);
    s.kernel(100, 130, "gemm_x", 1, 0, 50).kernel(2200, 2240, "gemm_x", 2, 0, 2150);
    s.kernel(2100, 2107, "elt_y", 3, 0, 2050);
    s.kernel(100, 111, "elt_y", 4, 1, 50).kernel(1500, 1520, "gemm_x", 5, 1, 1450);
    s.kernel(100, 125, "gemm_x", 6, 2, 50);
    normaliseTrace(s.t);
    categoriseKernels(s.t, rules);
    detectSteps(s.t, StepPattern{});
    return std::move(s.t);
}

CategoryRules rangeRules() {
    return CategoryRules::fromJson(R"({"rules": [{"category": "gemm", "pattern": "gemm"}],
        "range_rules": [{"category": "recompute", "pattern": "checkpoint"},
                        {"category": "optimizer", "pattern": "optim"}], "fallback": "other"})",
                                   "test rules");
}

} // namespace

class TestRunSummaries : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<Workspace> ws;
    RunId runId;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = std::make_unique<Workspace>(dir.filePath("sum.cnpdb").toStdString(),
                                         Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {(testpaths::dataDir() + "/hta/trace_filter").toStdString()};
        req.runName = "job";
        runId = ingest(*ws, req).runId;
    }

    void ranks_data() {
        QTest::addColumn<int>("rank");
        QTest::addColumn<qint64>("kernels");
        QTest::addColumn<qint64>("compute");
        QTest::addColumn<qint64>("communication");
        QTest::addColumn<qint64>("overlap");
        QTest::addColumn<qint64>("memory");
        QTest::addColumn<qint64>("window");
        QTest::newRow("rank 0") << 0 << 1154LL << 210320000LL << 336983000LL << 59216000LL << 353000LL
                                << 1222847000LL;
        QTest::newRow("rank 1") << 1 << 1104LL << 271973000LL << 303523000LL << 75530000LL << 4554000LL
                                << 1231186000LL;
    }
    void ranks() {
        QFETCH(int, rank);
        const RunSummaryReader r = summaryReaderOf(*ws, runId);
        const auto all = r.ranks();
        QCOMPARE(all.size(), std::size_t{2});
        const auto& s = all[static_cast<std::size_t>(rank)];
        QCOMPARE(s.rank, rank);
        QTEST(static_cast<qint64>(s.counts.kernel), "kernels");
        QTEST(static_cast<qint64>(s.breakdown.compute), "compute");
        QTEST(static_cast<qint64>(s.breakdown.communication), "communication");
        QTEST(static_cast<qint64>(s.breakdown.overlap), "overlap");
        QTEST(static_cast<qint64>(s.breakdown.memory), "memory");
        QVERIFY(s.window);
        QTEST(static_cast<qint64>(s.window->length()), "window");
        QCOMPARE(s.breakdown.window(), s.window->length());
        QVERIFY(s.breakdown.overlapFraction() && *s.breakdown.overlapFraction() > 0.1);
        // Every NCCL kernel is classified as communication (python: 10 ncclKernel_SendRecv per rank).
        std::int64_t comm = 0;
        for (const auto& k : r.kernelStats(rank)) {
            const bool nccl = k.name.rfind("ncclKernel", 0) == 0;
            QCOMPARE(k.category == "communication", nccl);
            if (nccl)
                comm += k.count;
        }
        QCOMPARE(comm, std::int64_t{10});
    }

    void multiRankSteps() {
        const RunSummaryReader r = summaryReaderOf(*ws, runId);
        const auto steps = r.steps();
        QCOMPARE(steps.size(), std::size_t{4});
        const auto m = aggregateSteps(steps);
        QCOMPARE(m.size(), std::size_t{2});
        // python windows: rank 0 607246000, 615601000; rank 1 607900000, 623286000 -> max is rank 1's.
        QCOMPARE(m[0].stepTimeNs, Ns{607900000});
        QCOMPARE(m[0].slowestRank, 1);
        QCOMPARE(m[0].skewNs, Ns{607900000 - 607246000});
        QCOMPARE(m[1].stepTimeNs, Ns{623286000});
        QCOMPARE(m[1].skewNs, Ns{623286000 - 615601000});
        QCOMPARE(QString::fromStdString(m[1].name), QStringLiteral("ProfilerStep#552"));
        // rank 0 step 551: compute 106252000, exposed comm 172259000, overlap 23068000, memory 169000
        // (python).
        QCOMPARE(steps[0].breakdown.compute, Ns{106252000});
        QCOMPARE(steps[0].breakdown.communication, Ns{172259000});
        QCOMPARE(steps[0].breakdown.overlap, Ns{23068000});
        QCOMPARE(steps[0].breakdown.memory, Ns{169000});
        Ns ex = 0;
        for (const auto& [c, v] : steps[0].exclusive)
            ex += v;
        QCOMPARE(ex, steps[0].length());
    }

    void reclassifyRebuilds() {
        QTemporaryDir d;
        Workspace w(d.filePath("re.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        SyntheticTrace s("r");
        s.kernel(0, 100, "sgemm_a").kernel(100, 150, "ncclKernel_x").kernel(150, 160, "weird");
        const auto id = storeRun(w, s.t);
        {
            Transaction tx(w.db());
            w.setMeta(
                std::string(metakeys::kCategoryRules),
                "{\"rules\":[{\"category\":\"mine\",\"pattern\":\"sgemm|weird\"}],\"fallback\":\"rest\"}");
            rebuildRunSummaries(w, id);
            tx.commit();
        }
        const RunSummaryReader r = summaryReaderOf(w, id);
        std::map<std::string, std::string> cat;
        for (const auto& k : r.kernelStats(-1))
            cat[k.name] = k.category;
        QCOMPARE(cat["sgemm_a"], std::string("mine"));
        QCOMPARE(cat["weird"], std::string("mine"));
        QCOMPARE(cat["ncclKernel_x"], std::string("rest")); // the new rules have no communication rule
        const auto rank = r.ranks().at(0);
        QCOMPARE(rank.breakdown.compute, Ns{160});
        QCOMPARE(rank.breakdown.communication, Ns{0});
        QCOMPARE(rank.exclusive.front().first, std::string("mine"));
        QCOMPARE(rank.exclusive.front().second, Ns{110});
        // The stored events carry the new category too.
        Statement st(w.db(), "SELECT s.value FROM kernels k JOIN strings s ON s.id = k.category_id "
                             "JOIN strings n ON n.id = k.name_id WHERE n.value = 'weird'");
        QVERIFY(st.step());
        QCOMPARE(st.text(0), std::string("mine"));
    }

    // Orphan GPU work: a kernel whose correlation id (77) no API call carries, launched before the
    // capture. By hand: orphan [0, 500) -> 1 orphan, 500 ns busy; whole window [0, 3500) with 500 ns idle
    // (the gap [500, 1000)); launched window [1000, 3500): gemm 2000 + memcpy 500, no idle. A memset
    // without correlation id is never an orphan.
    void orphanWork() {
        SyntheticTrace s("orphans");
        KernelEvent early;
        early.start = 0;
        early.end = 500;
        early.correlation = 77;
        early.name = s.t.strings.intern("early_gemm");
        s.t.kernels.push_back(early);
        s.kernel(1000, 3000, "sgemm", 1).memcpy(3000, 3500, 2).api(2900, 2950, "cudaMemcpyAsync", 2);
        s.memset(1500, 1600);
        const auto id = storeRun(*ws, s.t);
        const auto ranks = summaryReaderOf(*ws, id).ranks();
        QCOMPARE(ranks.size(), std::size_t{1});
        const auto& r = ranks.front();
        QCOMPARE(r.orphans.count, std::int64_t{1});
        QCOMPARE(r.orphans.busyNs, Ns{500});
        QCOMPARE(r.window->length(), Ns{3500});
        QCOMPARE(r.breakdown.idle, Ns{500});
        QVERIFY(r.orphans.launchedWindow);
        QCOMPARE(*r.orphans.launchedWindow, (Interval{1000, 3500}));
        QCOMPARE(r.orphans.launchedBreakdown.compute, Ns{2000});
        QCOMPARE(r.orphans.launchedBreakdown.memory, Ns{500});
        QCOMPARE(r.orphans.launchedBreakdown.idle, Ns{0});
    }

    // Step windows leave out orphan work unless the workspace says otherwise (issue 29). By hand: one step
    // (CPU [0, 1000)); launched kernels gemm [500, 1500) (launched at 100) and b [2500, 2600) (at 200),
    // so the step's GPU window is [500, 2600); an orphan kernel (correlation 77, no launch) runs [1000,
    // 3000). Without the orphan: compute 1000 + 100 = 1100, idle 1000. With it: compute [500, 2600) =
    // 2100, idle 0. The whole-trace window keeps it either way: [500, 3000), all busy.
    void stepsLeaveOutOrphans() {
        QTemporaryDir d;
        Workspace w(d.filePath("orph.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        SyntheticTrace s("step-orphans");
        s.range(0, 1000, "ProfilerStep#1");
        s.kernel(500, 1500, "gemm", 1, 0, 100).kernel(2500, 2600, "b", 2, 0, 200);
        KernelEvent early;
        early.start = 1000;
        early.end = 3000;
        early.correlation = 77;
        early.name = s.t.strings.intern("early_gemm");
        s.t.kernels.push_back(early);
        const auto id = storeRun(w, s.t);
        auto check = [&](Ns compute, Ns idle) {
            const RunSummaryReader r = summaryReaderOf(w, id);
            const auto steps = r.steps();
            QCOMPARE(steps.size(), std::size_t{1});
            QCOMPARE(steps[0].gpuStart, Ns{500});
            QCOMPARE(steps[0].gpuEnd, Ns{2600});
            QCOMPARE(steps[0].breakdown.compute, compute);
            QCOMPARE(steps[0].breakdown.idle, idle);
            Ns ex = 0, exIdle = 0;
            for (const auto& [c, v] : steps[0].exclusive) {
                ex += v;
                if (c == "idle")
                    exIdle = v;
            }
            QCOMPARE(ex, Ns{2100});
            QCOMPARE(exIdle, idle);
            const auto ranks = r.ranks();
            QCOMPARE(*ranks.at(0).window, (Interval{500, 3000}));
            QCOMPARE(ranks.at(0).breakdown.idle, Ns{0});
        };
        check(1100, 1000);
        if (QTest::currentTestFailed())
            return;
        Transaction tx(w.db());
        setStepsIncludeOrphans(w, true);
        rebuildRunSummaries(w, id);
        tx.commit();
        check(2100, 0);
    }

    // summary_stream, by hand: stream 7 runs sgemm [100, 200) and [200, 300) and elt [300, 350), launched
    // at 0, 10, 20 -> compute 250, top kernel sgemm (200), queue 1, 2, 3 then 2, 1, 0 at 100, 200, 300:
    // max 3, mean (1x10 + 2x10 + 3x80 + 2x100 + 1x100) / 300 = 1.9. Stream 9 runs an NCCL kernel
    // [150, 400) without a launch call (communication 250, not queued) and a copy [400, 450) launched at
    // 390 (memory 50, queue 1 over [390, 400): max 1, mean 1).
    void streamRows() {
        QTemporaryDir d;
        Workspace w(d.filePath("streams.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        SyntheticTrace s("streams");
        s.kernel(100, 200, "sgemm", 1, 0, 0)
            .kernel(200, 300, "sgemm", 2, 0, 10)
            .kernel(300, 350, "elt", 3, 0, 20);
        for (auto& k : s.t.kernels)
            k.stream = 7;
        s.kernel(150, 400, "ncclKernel_AllReduce");
        s.t.kernels.back().stream = 9;
        s.memcpy(400, 450, 4).api(390, 395, "cudaMemcpyAsync", 4);
        s.t.memcpys.back().stream = 9;
        const auto id = storeRun(w, s.t);
        const auto rows = summaryReaderOf(w, id).streams();
        QCOMPARE(rows.size(), std::size_t{2});
        const SummaryStreamRow& a = rows[0];
        QCOMPARE(a.stream, std::int64_t{7});
        QCOMPARE(a.kernelCount, std::int64_t{3});
        QCOMPARE(a.computeNs, std::int64_t{250});
        QCOMPARE(a.communicationNs, std::int64_t{0});
        QCOMPARE(a.topKernel.value_or(""), std::string("sgemm"));
        QCOMPARE(a.topKernelNs, std::int64_t{200});
        QCOMPARE(a.queueMax, std::int64_t{3});
        QCOMPARE(a.queueMean, 1.9);
        QCOMPARE(a.queuedOps, std::int64_t{3});
        const SummaryStreamRow& b = rows[1];
        QCOMPARE(b.stream, std::int64_t{9});
        QCOMPARE(b.kernelCount, std::int64_t{1});
        QCOMPARE(b.computeNs, std::int64_t{0});
        QCOMPARE(b.communicationNs, std::int64_t{250});
        QCOMPARE(b.memoryNs, std::int64_t{50});
        QVERIFY(!b.topKernel);
        QCOMPARE(b.queueMax, std::int64_t{1});
        QCOMPARE(b.queueMean, 1.0);
        QCOMPARE(b.queuedOps, std::int64_t{1});
    }

    // The real trace has no orphan (python over the JSON: every kernel/memcpy/memset correlation is
    // carried by a cuda_runtime call), so both windows are the same.
    void noOrphansInRealTrace() {
        for (const auto& r : summaryReaderOf(*ws, runId).ranks()) {
            QCOMPARE(r.orphans.count, std::int64_t{0});
            QCOMPARE(r.orphans.launchedWindow, r.window);
        }
    }
    // Launch-bound idle precomputed per step and rank (what the ablation reads), by hand. Rank 0, two
    // ProfilerStep ranges [0, 600) us and [600, 1200) us; a step's GPU window runs to the next step's GPU
    // start (docs/metrics.md), so step 1 is [0, 700) and step 2 [700, 1010). Times in us:
    //   a [0, 10)      launched at 0                  step 1
    //   b [500, 510)   launched at 490 -> gap [10, 500) = 490, launch-bound, step 1
    //   c [700, 710)   launched at 610 -> gap [510, 700) = 190, launch-bound, step 1
    //   d [900, 910)   launched at 800 -> gap [710, 900) = 190, launch-bound, step 2
    //   e [1000, 1010) launched at 850 -> gap [910, 1000) = 90, queued before it began: gpu-dependency
    // Rank 1 has one launch-bound gap of 40 in its only step. Steps: rank 0 680 and 190; rank 1 40; ranks:
    // 870 and 40.
    void launchBoundIdlePerStep() {
        constexpr Ns us = 1000;
        SyntheticTrace s("launch-bound", "", 2);
        s.range(0, 600 * us, "ProfilerStep#1").range(600 * us, 1200 * us, "ProfilerStep#2");
        s.kernel(0, 10 * us, "a", 1, 0, 0).kernel(500 * us, 510 * us, "b", 2, 0, 490 * us);
        s.kernel(700 * us, 710 * us, "c", 3, 0, 610 * us).kernel(900 * us, 910 * us, "d", 4, 0, 800 * us);
        s.kernel(1000 * us, 1010 * us, "e", 5, 0, 850 * us);
        s.range(0, 600 * us, "ProfilerStep#1", 1);
        s.kernel(0, 10 * us, "a", 11, 1, 0).kernel(50 * us, 60 * us, "b", 12, 1, 45 * us);
        const auto id = storeRun(*ws, s.t);
        const RunSummaryReader r = summaryReaderOf(*ws, id);
        const auto steps = r.steps();
        QCOMPARE(steps.size(), std::size_t{3});
        QCOMPARE(steps[0].launchBoundIdleNs, 680 * us);
        QCOMPARE(steps[1].launchBoundIdleNs, 190 * us);
        QCOMPARE(steps[2].rank, 1);
        QCOMPARE(steps[2].launchBoundIdleNs, 40 * us);
        const auto ranks = r.ranks();
        QCOMPARE(ranks.at(0).launchBoundIdleNs, 870 * us);
        QCOMPARE(ranks.at(1).launchBoundIdleNs, 40 * us);
    }

    // The cause of an idle gap is judged by the GPU activity that ended it, of any kind: a copy or memset
    // as well as a kernel (issue 29). By hand, rank 0, times in us:
    //   kernel a [0, 10) launched at 0
    //   copy [500, 510), its cudaMemcpyAsync at 5 (before the gap began) -> gap [10, 500) gpu-dependency
    //   kernel b [600, 610) launched at 550 -> gap [510, 600) launch-bound
    //   memset [800, 810), its cudaMemsetAsync at 700 (after the gap began) -> gap [610, 800) launch-bound
    //   kernel c [900, 910) launched at 20 (queued long before) -> gap [810, 900) gpu-dependency
    // Judged by the next kernel only, [10, 500) would be launch-bound (b, launched at 550) and [610, 800)
    // gpu-dependency (c, launched at 20).
    void gapCauseIsTheNextActivityOfAnyKind() {
        constexpr Ns us = 1000;
        SyntheticTrace s("gap-cause");
        s.kernel(0, 10 * us, "a", 1, 0, 0);
        s.memcpy(500 * us, 510 * us, 2).api(5 * us, 6 * us, "cudaMemcpyAsync", 2);
        s.kernel(600 * us, 610 * us, "b", 3, 0, 550 * us);
        MemsetEvent m;
        m.start = 800 * us;
        m.end = 810 * us;
        m.correlation = 4;
        m.name = s.t.strings.intern("Memset (Device)");
        s.t.memsets.push_back(m);
        s.api(700 * us, 701 * us, "cudaMemsetAsync", 4);
        s.kernel(900 * us, 910 * us, "c", 5, 0, 20 * us);
        const auto id = storeRun(*ws, s.t);
        auto gaps = summaryReaderOf(*ws, id).idleGaps(0);
        std::sort(gaps.begin(), gaps.end(),
                  [](const IdleGap& a, const IdleGap& b) { return a.start < b.start; });
        QCOMPARE(gaps.size(), std::size_t{4});
        const struct {
            Ns start, end;
            const char* state;
            const char* next;
            Ns launch;
        } expected[] = {{10 * us, 500 * us, "gpu-dependency", "Memcpy HtoD", 5 * us},
                        {510 * us, 600 * us, "launch-bound", "b", 550 * us},
                        {610 * us, 800 * us, "launch-bound", "Memset (Device)", 700 * us},
                        {810 * us, 900 * us, "gpu-dependency", "c", 20 * us}};
        for (std::size_t i = 0; i < gaps.size(); ++i) {
            QCOMPARE(gaps[i].start, expected[i].start);
            QCOMPARE(gaps[i].end, expected[i].end);
            QCOMPARE(gaps[i].cpuState, std::string(expected[i].state));
            QCOMPARE(gaps[i].nextKernel, std::string(expected[i].next));
            QCOMPARE(gaps[i].nextLaunchNs, expected[i].launch);
        }
    }

    // A blocking call covers a gap whether it began inside it or before it (the CPU blocked before the
    // queue drained). By hand, rank 0, times in us:
    //   kernel a [0, 100) launched at 0; cudaStreamSynchronize [50, 400) -> gap [100, 500) covered
    //   [100, 400) = 300 of 400 -> synchronising, syncNs 300 (before: 0, the call began before the gap)
    //   kernel b [500, 510) launched at 450
    //   cudaDeviceSynchronize [505, 560) and, on another thread, cudaStreamSynchronize [520, 600) -> gap
    //   [510, 700) covered 50 + 80 = 130 of 190 -> synchronising, syncNs 130
    //   kernel c [700, 710) launched at 650
    void blockingCallsBeforeTheGapCover() {
        constexpr Ns us = 1000;
        SyntheticTrace s("sync-cover");
        s.kernel(0, 100 * us, "a", 1, 0, 0).kernel(500 * us, 510 * us, "b", 2, 0, 450 * us);
        s.kernel(700 * us, 710 * us, "c", 3, 0, 650 * us);
        s.api(50 * us, 400 * us, "cudaStreamSynchronize");
        s.api(505 * us, 560 * us, "cudaDeviceSynchronize");
        s.api(520 * us, 600 * us, "cudaStreamSynchronize");
        s.t.apiCalls.back().tid += 1;
        const auto id = storeRun(*ws, s.t);
        auto gaps = summaryReaderOf(*ws, id).idleGaps(0);
        std::sort(gaps.begin(), gaps.end(),
                  [](const IdleGap& a, const IdleGap& b) { return a.start < b.start; });
        QCOMPARE(gaps.size(), std::size_t{2});
        QCOMPARE(gaps[0].start, 100 * us);
        QCOMPARE(gaps[0].syncNs, 300 * us);
        QCOMPARE(gaps[0].cpuState, std::string("synchronising"));
        QCOMPARE(gaps[1].start, 510 * us);
        QCOMPARE(gaps[1].syncNs, 130 * us);
        QCOMPARE(gaps[1].cpuState, std::string("synchronising"));
    }

    // A run split by rank into parts, each part's summaries computed on a thread of its own into one pool,
    // gives the whole run's all-rank kernel rows bit for bit (and the same per-rank rows), in name order.
    void splitByRankEqualsWhole_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<qulonglong>("budget");
        QTest::addColumn<int>(
            "names"); // all-rank rows: the fixture's 194 kernel names (python over the JSON)
        const qulonglong inMemory = KernelStatsPool::kDefaultMemoryBudgetBytes;
        QTest::newRow("fixture, in memory") << "fixture" << inMemory << 194;
        QTest::newRow("fixture, some groups spilled") << "fixture" << qulonglong{4096} << 194;
        QTest::newRow("fixture, every group spilled") << "fixture" << qulonglong{0} << 194;
        QTest::newRow("range categories, in memory") << "ranges" << inMemory << 2;
        QTest::newRow("range categories, spilled") << "ranges" << qulonglong{0} << 2;
    }
    void splitByRankEqualsWhole() {
        QFETCH(QString, trace);
        QFETCH(qulonglong, budget);
        QFETCH(int, names);
        const CategoryRules rules = trace == "fixture" ? CategoryRules::defaults() : rangeRules();
        TraceData whole;
        if (trace == "fixture") {
            std::vector<TraceData> files;
            for (const auto& f : expandInputs({(testpaths::dataDir() + "/hta/trace_filter").toStdString()}))
                files.push_back(importFile(f));
            whole.mergeAll(std::move(files));
            normaliseTrace(whole);
            categoriseKernels(whole, rules);
            detectSteps(whole, StepPattern{});
        } else {
            whole = rangeCategoryTrace(rules);
        }
        KernelRows one;
        computeRunSummaries(whole, rules, one);

        std::vector<TraceData> parts;
        for (const auto& r : whole.ranks)
            parts.push_back(onlyRank(whole, r.rank));
        KernelStatsPool pool(budget);
        std::vector<KernelRows> perPart(parts.size());
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < parts.size(); ++i)
            threads.emplace_back([&, i] { computeRunSummaries(parts[i], rules, perPart[i], &pool); });
        for (auto& t : threads)
            t.join();
        KernelRows allRanks;
        pool.write(allRanks);

        std::vector<SummaryKernelRow> expectedAll, expectedPerRank, perRank;
        for (const auto& r : one.rows)
            (r.rank == -1 ? expectedAll : expectedPerRank).push_back(r);
        for (const auto& p : perPart)
            perRank.insert(perRank.end(), p.rows.begin(), p.rows.end());
        QCOMPARE(expectedAll.size(), static_cast<std::size_t>(names));
        QCOMPARE(allRanks.rows.size(), expectedAll.size());
        for (std::size_t i = 0; i < expectedAll.size(); ++i)
            QVERIFY2(sameBits(allRanks.rows[i], expectedAll[i]), expectedAll[i].name.c_str());
        QVERIFY(std::is_sorted(expectedAll.begin(), expectedAll.end(),
                               [](const auto& a, const auto& b) { return a.name < b.name; }));
        QCOMPARE(perRank.size(), expectedPerRank.size()); // no part wrote an all-rank row
        for (std::size_t i = 0; i < perRank.size(); ++i)
            QVERIFY2(sameBits(perRank[i], expectedPerRank[i]), perRank[i].name.c_str());
        if (trace != "ranges")
            return;
        // By hand (rangeCategoryTrace). elt_y: 7 and 11 -> mean 9, stddev sqrt(8), both groups from range
        // rules -> rank 0's optimizer. gemm_x: 20 25 30 40 -> mean 28.75, median 27.5; squared deviations
        // 126.5625 + 14.0625 + 1.5625 + 76.5625 = 218.75 (exact) / 3; rank 0's recompute replaced by rank 1's
        // gemm (by name).
        const SummaryKernelRow& e = allRanks.rows[0];
        QCOMPARE(e.name, std::string("elt_y"));
        QCOMPARE(e.category.value_or(""), std::string("optimizer"));
        QCOMPARE(e.count, std::int64_t{2});
        QCOMPARE(e.meanNs, 9.0);
        QVERIFY(e.stddevNs == std::sqrt(8.0));
        const SummaryKernelRow& g = allRanks.rows[1];
        QCOMPARE(g.name, std::string("gemm_x"));
        QCOMPARE(g.category.value_or(""), std::string("gemm"));
        QCOMPARE(g.count, std::int64_t{4});
        QCOMPARE(g.totalNs, std::int64_t{115});
        QCOMPARE(g.meanNs, 28.75);
        QCOMPARE(g.medianNs, 27.5);
        QCOMPARE(g.minNs, std::int64_t{20});
        QCOMPARE(g.maxNs, std::int64_t{40});
        QVERIFY(g.stddevNs == std::sqrt(218.75 / 3.0));
    }

    // On the real trace the stored sums equal the stored launch-bound gaps summed per (rank, step).
    void launchBoundIdleMatchesTheGaps() {
        const RunSummaryReader r = summaryReaderOf(*ws, runId);
        std::map<std::pair<std::int32_t, std::int32_t>, Ns> perStep;
        std::map<std::int32_t, Ns> perRank;
        for (const auto& g : r.idleGaps(0))
            if (g.cpuState == "launch-bound") {
                perStep[{g.rank, g.stepIndex}] += g.length();
                perRank[g.rank] += g.length();
            }
        QVERIFY(!perRank.empty());
        for (const auto& s : r.steps())
            QCOMPARE(s.launchBoundIdleNs, (perStep[{s.rank, s.index}]));
        for (const auto& k : r.ranks())
            QCOMPARE(k.launchBoundIdleNs, perRank[k.rank]);
    }
};

QTEST_GUILESS_MAIN(TestRunSummaries)
#include "tst_runsummaries.moc"
