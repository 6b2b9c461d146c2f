// Insights on hand-built runs: each check fires on a trace built to trigger it (values by hand) and stays
// quiet otherwise; release-note rules on run metadata are table-driven.
#include "TestPaths.h"
#include "tst_analysis_synthetic.h"

#include "core/Units.h"
#include "ingest/IngestPipeline.h"
#include "requests/InsightsRequest.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

namespace {
const Insight* find(const std::vector<Insight>& v, const std::string& id) {
    for (const auto& i : v)
        if (i.id == id)
            return &i;
    return nullptr;
}
QString ids(const std::vector<Insight>& v) {
    QStringList l;
    for (const auto& i : v)
        l << QString::fromStdString(i.id);
    return l.join(',');
}
} // namespace

class TestInsights : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<Workspace> ws;
    int serial = 0;
    bool ncclRun_ = false;

    std::vector<Insight> run(SyntheticTrace s) {
        const std::string name = "r" + std::to_string(++serial);
        s.t.info.name = name;
        s.t.info.config = name;
        storeRun(*ws, s.t);
        return computeInsights(*ws, name);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = std::make_unique<Workspace>(dir.filePath("ins.cnpdb").toStdString(),
                                         Workspace::Mode::CreateIfMissing);
    }

    void quietRun() {
        SyntheticTrace s("x");
        s.range(0, 1'000'000, "ProfilerStep#1");
        s.kernel(10'000, 900'000, "sgemm", 1, 0, 100);
        QCOMPARE(ids(run(s)), QString());
    }

    // Compute on a side stream (issue 29: a GEMM on stream 17 went unflagged). By hand, one rank, window
    // [0, 1000) ns: main compute stream 7 (k_main [0, 600) + [900, 1000) = 700 ns); stream 17 runs
    // sgemm_side [100, 200) = 100 ns (10% of the window: reported, info below 15%); stream 18 runs an NCCL
    // kernel [600, 900) (communication, never flagged); stream 19 small_k [950, 990) = 40 ns (4%: below
    // the 5% threshold).
    void sideStreamCompute() {
        SyntheticTrace s("x");
        auto onStream = [&](Ns b, Ns e, const std::string& name, std::int64_t stream) {
            s.kernel(b, e, name);
            s.t.kernels.back().stream = stream;
        };
        onStream(0, 600, "k_main", 7);
        onStream(900, 1000, "k_main", 7);
        onStream(100, 200, "sgemm_side", 17);
        onStream(600, 900, "ncclKernel_AllReduce", 18);
        onStream(950, 990, "small_k", 19);
        const auto v = run(s);
        const Insight* in = find(v, "side-stream");
        QVERIFY2(in, qPrintable(ids(v)));
        QCOMPARE(in->value, 0.1);
        QCOMPARE(in->severity, InsightSeverity::Info);
        QCOMPARE(in->evidenceTotal, std::size_t{1});
        QCOMPARE(in->evidence.at(0).rank, 0);
        QCOMPARE(in->evidence.at(0).kernels, std::vector<std::string>{"sgemm_side"});
        QVERIFY2(QString::fromStdString(in->evidence.at(0).detail)
                     .startsWith("stream 17: 100 ns compute in 1 kernel"),
                 in->evidence.at(0).detail.c_str());
        QVERIFY2(QString::fromStdString(in->title).contains("stream 17 of rank 0 (10.0%"), in->title.c_str());
        // Three times the threshold: a warning (stream 17 now runs 200 ns of 1000).
        SyntheticTrace w("y");
        auto onW = [&](Ns b, Ns e, const std::string& name, std::int64_t stream) {
            w.kernel(b, e, name);
            w.t.kernels.back().stream = stream;
        };
        onW(0, 1000, "k_main", 7);
        onW(100, 300, "sgemm_side", 17);
        const std::vector<Insight> warnings = run(w); // kept: find() points into it
        const Insight* warn = find(warnings, "side-stream");
        QVERIFY(warn);
        QCOMPARE(warn->value, 0.2);
        QCOMPARE(warn->severity, InsightSeverity::Warning);
    }

    void launchBoundGap() {
        SyntheticTrace s("x");
        // Kernel A [0,10us); kernel B launched at 490 us, runs [500,510) us: a 490 us gap (96% of the
        // 510 us window) ended by work launched after the GPU went idle -> launch-bound, critical.
        s.kernel(0, 10'000, "sgemm_a", 1, 0, 0).kernel(500'000, 510'000, "sgemm_b", 2, 0, 490'000);
        const auto v = run(s);
        const auto* in = find(v, "idle-gaps");
        QVERIFY(in);
        QCOMPARE(in->severity, InsightSeverity::Critical);
        QCOMPARE(in->value, 490'000.0 / 510'000.0);
        QCOMPARE(in->evidence.size(), std::size_t{1});
        QCOMPARE(in->evidence[0].start, Ns{10'000});
        QCOMPARE(in->evidence[0].end, Ns{500'000});
        QCOMPARE(in->evidence[0].kernels.front(), std::string("sgemm_b"));
        QVERIFY(in->evidence[0].detail.rfind("launch-bound", 0) == 0);
    }

    void dataLoadingGap() {
        SyntheticTrace s("x");
        s.kernel(0, 10'000, "sgemm_a", 1, 0, 0).kernel(500'000, 510'000, "sgemm_b", 2, 0, 490'000);
        s.range(20'000, 480'000, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0,
                CpuRangeKind::UserAnnotation);
        const auto all = run(s);
        const auto* in = find(all, "idle-gaps");
        QVERIFY(in);
        QVERIFY(in->evidence[0].detail.rfind("waiting-on-data", 0) == 0);
    }

    void exposedCommunicationAndOverlap() {
        SyntheticTrace s("x");
        s.range(0, 1000, "ProfilerStep#1");
        // Step window [100, 1100): gemm [100,600), nccl [500,1100): exposed 500 of 1000 = 50%;
        // overlap 100 of 600 = 16.7% while communication is 60% of the window -> low overlap.
        s.kernel(100, 600, "sgemm", 1, 0, 10).kernel(500, 1100, "ncclKernel_AllReduce", 2, 0, 20);
        const auto v = run(s);
        const auto* ex = find(v, "exposed-communication");
        QVERIFY(ex);
        QCOMPARE(ex->value, 0.5);
        QCOMPARE(ex->severity, InsightSeverity::Critical);
        QCOMPARE(ex->evidence[0].stepIndex, 1); // ProfilerStep#1
        const auto* lo = find(v, "low-overlap");
        QVERIFY(lo);
        QCOMPARE(lo->value, 100.0 / 600.0);
    }

    void shortKernels() {
        SyntheticTrace s("x");
        // 150 kernels of 2 ns, each launched by a 5 ns call: 100% shorter than their launch.
        for (int i = 0; i < 150; ++i)
            s.kernel(1000 * i + 100, 1000 * i + 102, "tiny_add", i + 1, 0, 1000 * i);
        const auto all = run(s);
        const auto* in = find(all, "short-kernels");
        QVERIFY(in);
        QCOMPARE(in->value, 1.0);
        QCOMPARE(in->evidence[0].kernels.front(), std::string("tiny_add"));
    }

    void syncAndPageable() {
        SyntheticTrace s("x");
        s.range(0, 100'000, "ProfilerStep#1");
        s.kernel(1000, 90'000, "sgemm", 1, 0, 10);
        s.api(50'000, 60'000, "cudaDeviceSynchronize");
        s.api(200'000, 210'000, "cudaDeviceSynchronize"); // outside the step: not reported
        s.memcpy(95'000, 96'000, 7, 0, MemoryKind::Pageable);
        s.api(94'000, 96'500, "cudaMemcpy", 7);
        const auto v = run(s);
        const auto* d = find(v, "device-sync");
        QVERIFY(d);
        QCOMPARE(d->value, 1.0);
        QCOMPARE(d->evidence[0].stepIndex, 1); // ProfilerStep#1
        const auto* m = find(v, "sync-memcpy");
        QVERIFY(m);
        QCOMPARE(m->value, 2.0); // one synchronous + one pageable (the same copy)
    }

    void straggler() {
        SyntheticTrace s("x", "", 2);
        for (int r = 0; r < 2; ++r) {
            s.range(0, 1000, "ProfilerStep#1", r).range(1000, 2000, "ProfilerStep#2", r);
            // rank 0 steps: [100,1100) [1100,2100); rank 1: [100,1300) [1300,2500)
            const Ns len = r == 0 ? 1000 : 1200;
            s.kernel(100, 100 + len, "sgemm", 1, r, 10).kernel(100 + len, 100 + 2 * len, "sgemm", 2, r, 1010);
        }
        const auto all = run(s);
        const auto* in = find(all, "straggler");
        QVERIFY(in);
        // skew 200 of 1200 (step time), finish spread 400 of 1200 in step 1 -> 1/3.
        QCOMPARE(in->value, 400.0 / 1200.0);
        QCOMPARE(in->severity, InsightSeverity::Critical);
        QCOMPARE(in->evidence[0].rank, 1);
    }

    // Rank 0 of a real 2-rank NCCL job (HTA test data). Expected values from an independent Python pass
    // over the JSON (decimal text read exactly, ns = round(us * 1000) for ts and dur, union of
    // kernel/gpu_memcpy/gpu_memset intervals, gaps between merged intervals): window 660551005 ns; gaps
    // >= 100 µs: 1281 totalling 442163968 ns (66.9%); gaps >= 10 µs: 2446 totalling 501129034 ns. Storing
    // only the 256 longest gaps gave 256 / 253.8 ms and the same figures for both thresholds.
    void idleGapsOnRealNcclTrace_data() {
        QTest::addColumn<qint64>("thresholdNs");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<qint64>("totalNs");
        QTest::newRow("100 us") << qint64(100'000) << qint64(1281) << qint64(442'163'968);
        QTest::newRow("10 us") << qint64(10'000) << qint64(2446) << qint64(501'129'034);
    }
    void idleGapsOnRealNcclTrace() {
        QFETCH(qint64, thresholdNs);
        QFETCH(qint64, count);
        QFETCH(qint64, totalNs);
        if (!ncclRun_) {
            TraceData t = importFile(
                (testpaths::dataDir() + "/hta/nccl_parser_config/nccl_data.json.gz").toStdString());
            t.info.name = t.info.config = "nccl";
            storeRun(*ws, std::move(t));
            ncclRun_ = true;
        }
        InsightOptions o;
        o.idleGapNs = thresholdNs;
        const auto v = computeInsights(*ws, "nccl", o);
        const auto* in = find(v, "idle-gaps");
        QVERIFY(in);
        QCOMPARE(in->evidenceTotal, std::size_t(count));
        QCOMPARE(in->evidence.size(), o.maxEvidence);
        QCOMPARE(in->value, double(totalNs) / 660'551'005.0);
        QVERIFY2(in->title.rfind(units::count(count) + " GPU idle gaps ≥ ", 0) == 0, in->title.c_str());
    }

    // A cudaGraphLaunch replaying 40 kernels of 2 µs under one correlation id, beside 120 kernels of
    // 2 ns each launched by its own 5 ns call: only the 120 are compared with their launch call (all
    // shorter: 100%), the 40 are graph replays, and the advice does not tell a graph user to use graphs.
    void cudaGraphKernels() {
        SyntheticTrace s("x");
        s.api(0, 30'000, "cudaGraphLaunch", 999);
        for (int i = 0; i < 40; ++i) {
            KernelEvent k;
            k.start = 40'000 + 2'000 * i;
            k.end = k.start + 2'000;
            k.correlation = 999;
            k.name = s.t.strings.intern("graph_gemm");
            s.t.kernels.push_back(k);
        }
        for (int i = 0; i < 120; ++i)
            s.kernel(200'000 + 1000 * i + 100, 200'000 + 1000 * i + 102, "tiny_add", i + 1, 0,
                     200'000 + 1000 * i);
        const auto v = run(s);
        const auto* in = find(v, "short-kernels");
        QVERIFY(in);
        QCOMPARE(in->value, 1.0);
        QVERIFY2(in->explanation.find("120 kernels launched one by one") != std::string::npos,
                 in->explanation.c_str());
        QVERIFY2(in->explanation.find("40 graph kernels in 1 graph launch") != std::string::npos,
                 in->explanation.c_str());
        QVERIFY(in->explanation.find("capture the") == std::string::npos);
    }

    // .item(): a 4-byte DtoH cudaMemcpyAsync, then a cudaStreamSynchronize from 300.02 µs until the copy
    // has landed (601.5 µs). The CPU queued nothing meanwhile, so the GPU idles from the copy's end (601
    // µs) to the next kernel (700 µs, launched at 690 µs): that 99 µs gap is the cost, 99 / 980 µs of the
    // step's GPU window [10, 990) µs = 10.1%: a warning (>= 5%, < 15%), though the CPU was blocked 301 µs.
    // A cudaStreamWaitEvent (GPU-side wait) is not counted.
    void blockingStreamSync() {
        SyntheticTrace s("x");
        s.range(0, 1'000'000, "ProfilerStep#1");
        s.kernel(10'000, 600'000, "sgemm", 1, 0, 5'000);
        s.api(5'000, 5'010, "cudaLaunchKernel", 1);
        MemcpyEvent m;
        m.start = 600'000;
        m.end = 601'000;
        m.correlation = 2;
        m.kind = MemcpyKind::DtoH;
        m.srcKind = MemoryKind::Device;
        m.dstKind = MemoryKind::Pinned;
        m.bytes = 4;
        m.name = s.t.strings.intern("Memcpy DtoH");
        s.t.memcpys.push_back(m);
        s.api(300'000, 300'010, "cudaMemcpyAsync", 2);
        s.api(300'020, 601'500, "cudaStreamSynchronize");
        s.api(650'000, 650'100, "cudaStreamWaitEvent");
        s.kernel(700'000, 990'000, "sgemm", 3, 0, 690'000);
        s.api(690'000, 690'010, "cudaLaunchKernel", 3);
        const auto v = run(s);
        const auto* in = find(v, "stream-sync");
        QVERIFY(in);
        QCOMPARE(in->evidence.size(), std::size_t{1});
        QCOMPARE(in->evidence[0].start, Ns{300'020});
        QCOMPARE(in->evidence[0].stepIndex, 1); // ProfilerStep#1
        QVERIFY2(in->evidence[0].detail.find("after a 4 B device-to-host copy") != std::string::npos,
                 in->evidence[0].detail.c_str());
        QCOMPARE(in->value, 99'000.0 / 980'000.0);
        QCOMPARE(in->severity, InsightSeverity::Warning);
        QVERIFY2(in->title.find("the GPU idled 99.0 µs behind them (10.1% of the step time)") !=
                     std::string::npos,
                 in->title.c_str());
    }

    // The same .item() gap, but a DataLoader range covers it (the CPU fetched the next batch after the
    // sync returned): the gap is the loader's (waiting-on-data), so the sync costs nothing: info.
    void gapOfTheDataLoaderIsNotTheSyncs() {
        SyntheticTrace s("x");
        s.range(0, 1'000'000, "ProfilerStep#1");
        s.kernel(10'000, 600'000, "sgemm", 1, 0, 5'000);
        s.api(5'000, 5'010, "cudaLaunchKernel", 1);
        s.api(300'020, 601'500, "cudaStreamSynchronize");
        s.range(601'600, 689'000, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
        s.kernel(700'000, 990'000, "sgemm", 3, 0, 690'000);
        s.api(690'000, 690'010, "cudaLaunchKernel", 3);
        const auto v = run(s);
        const auto* in = find(v, "stream-sync");
        QVERIFY(in);
        QCOMPARE(in->value, 0.0);
        QCOMPARE(in->severity, InsightSeverity::Info);
    }

    // A loop that runs ahead and waits on an event while the GPU stays busy (one kernel [10, 1010) µs, the
    // CPU blocked [600.02, 900.02) µs): 30% of the step blocked, no GPU time lost: info, value 0.
    void syncWhileTheGpuIsBusyIsInfo() {
        SyntheticTrace s("x");
        s.range(0, 1'000'000, "ProfilerStep#1");
        s.kernel(10'000, 1'010'000, "sgemm", 1, 0, 0);
        s.api(600'020, 900'020, "cudaEventSynchronize");
        const auto v = run(s);
        const auto* in = find(v, "stream-sync");
        QVERIFY(in);
        QCOMPARE(in->value, 0.0);
        QCOMPARE(in->severity, InsightSeverity::Info);
        QVERIFY2(in->title.find("blocked the CPU for 300 µs inside steps; the GPU stayed busy") !=
                     std::string::npos,
                 in->title.c_str());
    }

    // An nsys export of a plain CUDA program: no steps, no PyTorch. 81 µs of pageable copies in a 1 s
    // window (0.008%) is info, not a warning; no advice names torch, .item() or steps; one launch is
    // "1 launch".
    void nonPyTorchProgram() {
        SyntheticTrace s("x");
        s.t.info.sourceFormat = "nsys";
        // Gaps [10, 500) µs (0 launches inside) and [581, 990) µs (the second kernel's launch at 850 µs).
        s.kernel(0, 10'000, "saxpy_kernel", 1, 0, 0)
            .kernel(990'000, 1'000'000'000, "saxpy_kernel", 2, 0, 850'000);
        s.memcpy(500'000, 581'000, 3, 0, MemoryKind::Pageable);
        s.api(400'000, 600'000, "cudaMemcpy", 3);
        s.api(700'000, 800'000, "cudaDeviceSynchronize");
        const auto v = run(s);
        const auto* m = find(v, "sync-memcpy");
        QVERIFY(m);
        QCOMPARE(m->severity, InsightSeverity::Info);
        for (const auto& in : v) {
            const std::string text = in.title + " " + in.explanation;
            for (const char* banned : {"torch", ".item()", "step", "DataLoader", " us "})
                QVERIFY2(text.find(banned) == std::string::npos,
                         qPrintable(QString::fromStdString(in.id + ": " + text)));
        }
        const auto* g = find(v, "idle-gaps");
        QVERIFY(g);
        QCOMPARE(g->evidence.size(), std::size_t{2});
        QVERIFY2(g->evidence[0].detail.find(", 0 launches during") != std::string::npos,
                 g->evidence[0].detail.c_str());
        QVERIFY2(g->evidence[1].detail.find(", 1 launch during") != std::string::npos,
                 g->evidence[1].detail.c_str());
    }

    void releaseNotes_data() {
        QTest::addColumn<QStringList>("env"); // KEY=VALUE
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("expected"); // insight ids, comma-separated
        const QString ifn = "release-notes.nccl-socket-ifname", drv = "release-notes.driver-version",
                      ds = "release-notes.deepspeed-prefetch-bucket";
        QTest::newRow("8 gpus eth0 ok") << QStringList{"NCCL_SOCKET_IFNAME=eth0", "LOCAL_WORLD_SIZE=8"} << ""
                                        << ""
                                        << "";
        QTest::newRow("8 gpus hpn0 bad") << QStringList{"NCCL_SOCKET_IFNAME=hpn0", "LOCAL_WORLD_SIZE=8"} << ""
                                         << "" << ifn;
        QTest::newRow("16 gpus hpn0 ok")
            << QStringList{"NCCL_SOCKET_IFNAME=hpn0", "LOCAL_WORLD_SIZE=16"} << ""
            << ""
            << "";
        QTest::newRow("16 gpus eth0 bad")
            << QStringList{"NCCL_SOCKET_IFNAME=eth0", "LOCAL_WORLD_SIZE=16"} << ""
            << "" << ifn;
        QTest::newRow("2 gpus via CVD bad")
            << QStringList{"NCCL_SOCKET_IFNAME=bond0", "CUDA_VISIBLE_DEVICES=0,1"} << ""
            << "" << ifn;
        QTest::newRow("1 gpu from ranks eth0 ok") << QStringList{"NCCL_SOCKET_IFNAME=eth0"} << ""
                                                  << ""
                                                  << "";
        QTest::newRow("3 gpus: no rule")
            << QStringList{"NCCL_SOCKET_IFNAME=bond0", "LOCAL_WORLD_SIZE=3"} << ""
            << ""
            << "";
        QTest::newRow("cuda 13.0.2 driver 580") << QStringList{} << "580.65.06"
                                                << "13.0.2"
                                                << "";
        QTest::newRow("cuda 13.0 driver 575") << QStringList{} << "575.51.03"
                                              << "13.0" << drv;
        QTest::newRow("cuda 13000 driver 570") << QStringList{} << "570.1"
                                               << "13000" << drv;
        QTest::newRow("cuda 12.8 driver 570") << QStringList{} << "570.124"
                                              << "12.8" << drv;
        QTest::newRow("cuda 12.8 driver 575") << QStringList{} << "575.0"
                                              << "12.8"
                                              << "";
        QTest::newRow("cuda 12.4 driver 550") << QStringList{} << "550.54"
                                              << "12.4"
                                              << "";
        QTest::newRow("driver is a CUDA API version") << QStringList{} << "13.0"
                                                      << "13.0"
                                                      << "";
        QTest::newRow("deepspeed auto")
            << QStringList{"zero_optimization.stage3_prefetch_bucket_size=auto"} << ""
            << ""
            << "";
        QTest::newRow("deepspeed empty")
            << QStringList{"zero_optimization.stage3_prefetch_bucket_size="} << ""
            << ""
            << "";
        QTest::newRow("deepspeed fixed")
            << QStringList{"zero_optimization.stage3_prefetch_bucket_size=5e8"} << ""
            << "" << ds;
        QTest::newRow("deepspeed config json")
            << QStringList{"DEEPSPEED_CONFIG={\"zero_optimization\":{\"stage\":3,\"stage3_prefetch_bucket_"
                           "size\":50000000}}"}
            << ""
            << "" << ds;
        QTest::newRow("deepspeed config json auto")
            << QStringList{"DEEPSPEED_CONFIG={\"zero_optimization\":{\"stage3_prefetch_bucket_size\":"
                           "\"auto\"}}"}
            << ""
            << ""
            << "";
    }
    void releaseNotes() {
        QFETCH(QStringList, env);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(QString, expected);
        SyntheticTrace s("x");
        s.kernel(0, 1000, "sgemm");
        for (const auto& kv : env) {
            const auto eq = kv.indexOf('=');
            s.env(kv.left(eq).toStdString(), kv.mid(eq + 1).toStdString());
        }
        s.t.info.driverVersion = driver.toStdString();
        s.t.info.cudaVersion = cuda.toStdString();
        const auto v = run(s);
        QStringList got;
        for (const auto& i : v)
            if (i.id.rfind("release-notes.", 0) == 0) {
                got << QString::fromStdString(i.id);
                QVERIFY(!i.explanation.empty() && !i.evidence.empty());
            }
        QCOMPARE(got.join(','), expected);
    }
};

QTEST_GUILESS_MAIN(TestInsights)
#include "tst_insights.moc"
