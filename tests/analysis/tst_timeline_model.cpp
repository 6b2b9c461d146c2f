// Timeline model from a workspace: row structure, loading, event details and the launching call,
// search, and range statistics equal to the analysis library's for the same interval. Also loads the
// real H200 demo trace (resources/demo/demo_base.json.gz) and checks its counts.
#include "TestPaths.h"
#include "ingest/IngestPipeline.h"
#include "metrics/CategoryRules.h"
#include "store/Workspace.h"
#include "timeline/EventDetails.h"
#include "timeline/RangeStatistics.h"
#include "timeline/TimelineLoader.h"
#include "timeline/TimelineSearch.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::timeline;

namespace {

// One rank, GPU 0: stream 7 kernels gemm [100,200) "sm90_gemm_a", comm [150,300) "ncclDevKernel_AllReduce",
// stream 7 memcpy [320,360); stream 9: gemm [400,450) "sm90_gemm_b"; thread 11: API calls
// cudaLaunchKernel [90,95) corr 1, [140,145) corr 2; cpu ops "aten::mm" [80,99) holding the first
// call, annotation "ProfilerStep#0" [70,500); a step [100,450); counter "memory" at 100 (1.0), 300 (3.0).
TraceData smallTrace() {
    TraceData t;
    t.info.name = "small";
    t.info.config = "small";
    t.info.sourceFormat = "synthetic";
    RankInfo ri;
    ri.rank = 0;
    ri.host = "h";
    t.ranks.push_back(ri);
    auto S = [&](const char* s) { return t.strings.intern(s); };
    auto kernel = [&](Ns s, Ns e, std::int64_t stream, const char* name, const char* cat, std::int64_t corr) {
        KernelEvent k;
        k.start = s;
        k.end = e;
        k.stream = stream;
        k.name = S(name);
        k.category = S(cat);
        k.correlation = corr;
        k.grid[0] = 132;
        k.grid[1] = k.grid[2] = 1;
        k.block[0] = 256;
        k.block[1] = k.block[2] = 1;
        k.registers = 96;
        k.dynamicSmem = 4096;
        t.kernels.push_back(k);
    };
    kernel(100, 200, 7, "sm90_gemm_a", "gemm", 1);
    kernel(150, 300, 7, "ncclDevKernel_AllReduce", "communication", 2);
    kernel(400, 450, 9, "sm90_gemm_b", "gemm", 0);
    MemcpyEvent m;
    m.start = 320;
    m.end = 360;
    m.stream = 7;
    m.kind = MemcpyKind::HtoD;
    m.bytes = 4096;
    t.memcpys.push_back(m);
    auto api = [&](Ns s, Ns e, std::int64_t corr) {
        ApiCall a;
        a.start = s;
        a.end = e;
        a.pid = 5;
        a.tid = 11;
        a.correlation = corr;
        a.name = S("cudaLaunchKernel");
        t.apiCalls.push_back(a);
    };
    api(90, 95, 1);
    api(140, 145, 2);
    auto range = [&](Ns s, Ns e, const char* name, CpuRangeKind k) {
        CpuRange r;
        r.start = s;
        r.end = e;
        r.pid = 5;
        r.tid = 11;
        r.kind = k;
        r.name = S(name);
        t.cpuRanges.push_back(r);
    };
    range(80, 99, "aten::mm", CpuRangeKind::CpuOp);
    range(70, 500, "ProfilerStep#0", CpuRangeKind::UserAnnotation);
    t.flows.push_back({1, 0, 90, 11, 100, 7});
    t.flows.push_back({2, 0, 140, 11, 150, 7});
    StepRange st;
    st.name = S("ProfilerStep#0");
    st.cpuStart = 70;
    st.cpuEnd = 500;
    st.gpuStart = 100;
    st.gpuEnd = 450;
    t.steps.push_back(st);
    CounterSample c1{100, 1.0, 0, 0, S("memory")}, c2{300, 3.0, 0, 0, S("memory")};
    t.counters = {c1, c2};
    return t;
}

RunId insert(Workspace& ws, const TraceData& t) {
    Transaction tx(ws.db());
    const RunId id = ws.insertRun(t);
    tx.commit();
    return id;
}

} // namespace

class TestTimelineModel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path_;
    RunId run_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath("t.cnpdb").toStdString();
        Workspace ws(path_, Workspace::Mode::CreateIfMissing);
        run_ = insert(ws, smallTrace());
    }

    void rowsAndLanes() {
        const TimelineModel m = loadTimeline(path_, run_);
        QCOMPARE(m.runName, std::string("small"));
        // Rows in order: steps, stream 7, stream 9, counter "memory", the launch queue of stream 7 (the
        // only stream with launched work), thread 11.
        QCOMPARE(m.rows.size(), std::size_t(6));
        QCOMPARE(int(m.rows[0].kind), int(RowKind::Steps));
        QCOMPARE(m.rows[1].label, std::string("Stream 7"));
        QCOMPARE(m.rows[2].label, std::string("Stream 9"));
        QCOMPARE(int(m.rows[3].kind), int(RowKind::Counter));
        QCOMPARE(m.rows[3].label, std::string("memory"));
        // Queue of stream 7 (docs/metrics.md "Streams"): gemm launched at 90, started at 100; the NCCL
        // kernel launched at 140, started at 150 -> 1 at 90, 0 at 100, 1 at 140, 0 at 150.
        QCOMPARE(int(m.rows[4].kind), int(RowKind::Counter));
        QCOMPARE(m.rows[4].label, std::string("Queue · stream 7"));
        QCOMPARE(m.rows[4].counter.ts, (std::vector<Ns>{90, 100, 140, 150}));
        QCOMPARE(m.rows[4].counter.value, (std::vector<double>{1, 0, 1, 0}));
        QCOMPARE(m.rows[4].counter.maxValue, 1.0);
        QCOMPARE(m.rows[5].label, std::string("Thread 11 (pid 5)"));
        // Stream 7: gemm [100,200) and comm [150,300) overlap -> two lanes; the memcpy follows in lane 0.
        QCOMPARE(m.rows[1].lanes.size(), std::size_t(2));
        QCOMPARE(m.rows[1].lanes[0].size(), std::size_t(2));
        QCOMPARE(m.rows[1].lanes[1].size(), std::size_t(1));
        QCOMPARE(m.rows[1].lanes[1].start(0), Ns(150));
        // Thread 11: ProfilerStep#0 (lane 0) > aten::mm (lane 1) > first API call (lane 2); the second
        // call sits directly under the annotation (lane 1).
        QCOMPARE(m.rows[5].lanes.size(), std::size_t(3));
        QCOMPARE(m.names[m.rows[5].lanes[0].name(0)], std::string("ProfilerStep#0"));
        QCOMPARE(m.rows[5].lanes[1].size(), std::size_t(2));
        QCOMPARE(m.rows[5].lanes[2].start(0), Ns(90));
        // 4 GPU activities + 2 API calls + 2 CPU ranges + 1 step + 2 + 4 counter samples.
        QCOMPARE(m.eventCount(), std::size_t(11 + 4));
        QCOMPARE(m.runStart, Ns(70));
        QCOMPARE(m.runEnd, Ns(500));
        QCOMPARE(m.rows[3].counter.maxValue, 3.0);
        // Groups: rank 0, GPU 0, CPU threads; collapsing the GPU hides its four rows.
        QCOMPARE(m.groups.size(), std::size_t(3));
        TimelineModel c = loadTimeline(path_, run_);
        QCOMPARE(c.layout(18, 20).size(), std::size_t(9));
        c.groups[1].collapsed = true;
        QCOMPARE(c.layout(18, 20).size(), std::size_t(5));
    }

    void detailsAndLaunchingCall() {
        Workspace ws(path_, Workspace::Mode::ReadOnly);
        const TimelineModel m = loadTimeline(ws, run_);
        const EventRef k = findEvent(m, 0, RowKind::GpuStream, 7, 100);
        QVERIFY(k.valid());
        const EventDetails d = lookupEventDetails(ws, m, k);
        QCOMPARE(d.name, std::string("sm90_gemm_a"));
        QCOMPARE(d.category, std::string("gemm"));
        QCOMPARE(d.grid[0], 132);
        QCOMPARE(d.block[0], 256);
        QCOMPARE(d.registers, 96);
        QCOMPARE(d.dynamicSmem, 4096);
        QCOMPARE(d.correlation, std::int64_t(1));
        QCOMPARE(d.linkName, std::string("cudaLaunchKernel"));
        QCOMPARE(d.linkStart, Ns(90));
        QCOMPARE(d.linkTid, std::int64_t(11));
        QVERIFY(d.link.valid());
        QCOMPARE(m.rows[d.link.row].lanes[d.link.lane].start(d.link.index), Ns(90));
        // And back: the API call's launched activity is the kernel.
        const EventDetails back = lookupEventDetails(ws, m, d.link);
        QCOMPARE(back.kind, EventKind::ApiCall);
        QCOMPARE(back.link, k);
        // Memcpy: bytes and direction.
        const EventDetails c = lookupEventDetails(ws, m, findEvent(m, 0, RowKind::GpuStream, 7, 320));
        QCOMPARE(c.bytes, std::int64_t(4096));
        QCOMPARE(c.extra, std::string("HtoD"));
    }

    void search_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<bool>("regex");
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("firstStart");
        QTest::newRow("substring, any case") << "GEMM" << false << 2 << qint64(100);
        QTest::newRow("regex") << "^cuda.*Kernel$" << true << 2 << qint64(90);
        QTest::newRow("regex alternation") << "nccl|aten" << true << 2 << qint64(80);
        QTest::newRow("steps and annotation") << "profilerstep" << false << 2 << qint64(70);
        QTest::newRow("no match") << "zzz" << false << 0 << qint64(-1);
    }
    void search() {
        QFETCH(QString, pattern);
        QFETCH(bool, regex);
        QFETCH(int, count);
        QFETCH(qint64, firstStart);
        const TimelineModel m = loadTimeline(path_, run_);
        const TimelineSearch s(m, pattern.toStdString(), regex);
        QVERIFY(s.error().empty());
        QCOMPARE(int(s.count()), count);
        if (count == 0) {
            QCOMPARE(s.nextAfter(0), std::int64_t(-1));
            return;
        }
        QCOMPARE(s.hit(0).start, Ns(firstStart));
        // next wraps from the last hit to the first, previous from the first to the last.
        QCOMPARE(s.nextAfter(s.hit(count - 1).start), std::int64_t(0));
        QCOMPARE(s.previousBefore(s.hit(0).start), std::int64_t(count - 1));
        const SearchHit& h = s.hit(0);
        QVERIFY(s.anyMatchIn(h.row, h.lane, h.index, 1));
    }
    void badRegex() {
        const TimelineModel m = loadTimeline(path_, run_);
        const TimelineSearch s(m, "gemm(", true);
        QVERIFY(!s.error().empty());
        QCOMPARE(s.count(), std::size_t(0));
    }

    void rangeStatistics_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<qint64>("compute");
        QTest::addColumn<qint64>("communication");
        QTest::addColumn<qint64>("overlap");
        QTest::addColumn<qint64>("memory");
        QTest::addColumn<qint64>("idle");
        // By hand: C = [100,200) U [400,450), M = [150,300), Y = [320,360).
        QTest::newRow("whole") << qint64(0) << qint64(500) << qint64(150) << qint64(100) << qint64(50)
                               << qint64(40) << qint64(210);
        QTest::newRow("inside overlap")
            << qint64(160) << qint64(190) << qint64(30) << qint64(0) << qint64(30) << qint64(0) << qint64(0);
        QTest::newRow("comm tail + copy")
            << qint64(250) << qint64(350) << qint64(0) << qint64(50) << qint64(0) << qint64(30) << qint64(20);
    }
    void rangeStatistics() {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(qint64, compute);
        QFETCH(qint64, communication);
        QFETCH(qint64, overlap);
        QFETCH(qint64, memory);
        QFETCH(qint64, idle);
        const TimelineModel m = loadTimeline(path_, run_);
        const auto prio = CategoryRules::defaults().computePriority();
        const RangeStatistics r = computeRangeStatistics(m, 0, {start, end}, prio);
        QCOMPARE(qint64(r.breakdown.compute), compute);
        QCOMPARE(qint64(r.breakdown.communication), communication);
        QCOMPARE(qint64(r.breakdown.overlap), overlap);
        QCOMPARE(qint64(r.breakdown.memory), memory);
        QCOMPARE(qint64(r.breakdown.idle), idle);
        // The analysis library on the trace itself (not through the timeline) gives the same numbers.
        const TraceData t = smallTrace();
        CategoryOrder order = CategoryOrder::fromComputePriority(prio);
        std::vector<TimedActivity> acts;
        for (const auto& k : t.kernels)
            acts.push_back({k.start, k.end, order.indexOf(t.strings.at(k.category))});
        for (const auto& c : t.memcpys)
            acts.push_back({c.start, c.end, order.memory});
        const WindowBreakdown ref = computeBreakdown(acts, order, {start, end});
        QCOMPARE(r.breakdown.compute, ref.compute);
        QCOMPARE(r.breakdown.idle, ref.idle);
        QCOMPARE(r.breakdown.exclusive, ref.exclusive);
        QCOMPARE(r.order.names, order.names);
    }
    void topKernels() {
        const TimelineModel m = loadTimeline(path_, run_);
        const RangeStatistics r =
            computeRangeStatistics(m, 0, {0, 500}, CategoryRules::defaults().computePriority());
        QCOMPARE(r.topKernels.size(), std::size_t(3));
        QCOMPARE(r.topKernels[0].name, std::string("ncclDevKernel_AllReduce"));
        QCOMPARE(r.topKernels[0].timeInRange, Ns(150));
        QCOMPARE(r.topKernels[1].name, std::string("sm90_gemm_a"));
        QCOMPARE(r.topKernels[2].timeInRange, Ns(50));
    }

    void realH200Trace() {
        // Counts from the fixture JSON with python3 at authoring time: X events with cat kernel 4165,
        // gpu_memset 470, gpu_memcpy 58; search "flash" over every named event 51.
        const std::string src = testpaths::sourceDir().toStdString() + "/resources/demo/demo_base.json.gz";
        const std::string path = dir_.filePath("demo.cnpdb").toStdString();
        Workspace ws(path, Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {src};
        req.runName = "base";
        const IngestResult res = ingest(ws, req);
        const TimelineModel m = loadTimeline(ws, res.runId);
        std::size_t kernels = 0, memsets = 0, memcpys = 0;
        for (const auto& row : m.rows)
            for (const auto& l : row.lanes)
                for (std::size_t i = 0; i < l.size(); ++i) {
                    kernels += l.kind(i) == EventKind::Kernel;
                    memsets += l.kind(i) == EventKind::Memset;
                    memcpys += l.kind(i) == EventKind::Memcpy;
                }
        QCOMPARE(kernels, std::size_t(4165));
        QCOMPARE(memsets, std::size_t(470));
        QCOMPARE(memcpys, std::size_t(58));
        QCOMPARE(TimelineSearch(m, "flash", false).count(), std::size_t(51));
        // Every lane keeps the invariant the view relies on.
        for (const auto& row : m.rows)
            for (const auto& l : row.lanes)
                for (std::size_t i = 1; i < l.size(); ++i)
                    QVERIFY(l.effectiveEnd(i - 1) <= l.start(i));
        QVERIFY(m.memoryBytes() / m.eventCount() <= 64);
    }
};

QTEST_GUILESS_MAIN(TestTimelineModel)
#include "tst_timeline_model.moc"
