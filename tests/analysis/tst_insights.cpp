// Insights on hand-built runs: each check fires on a trace built to trigger it (values by hand) and stays
// quiet otherwise; release-note rules on run metadata are table-driven.
#include "tst_analysis_synthetic.h"

#include "metrics/Insights.h"

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
        QCOMPARE(ex->evidence[0].stepIndex, 0);
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
        QCOMPARE(d->evidence[0].stepIndex, 0);
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
