// Kernel statistics (cuda_gpu_kern_sum columns) and launch statistics from the summary tables, on a
// hand-built two-rank trace. Expected values by hand: durations 10,20,30,40 -> mean 25, median 25,
// sample stddev sqrt(500/3); with rank 1's 50 -> all ranks mean 30, median 30, stddev sqrt(250).
#include "tst_analysis_synthetic.h"

#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace cnp;
using namespace cnp::testing;

class TestKernelStats : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<Workspace> ws;
    RunId runId;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = std::make_unique<Workspace>(dir.filePath("ks.cnpdb").toStdString(),
                                         Workspace::Mode::CreateIfMissing);
        SyntheticTrace s("stats", "", 2);
        // rank 0: gemm_a x4 (10,20,30,40 ns), launched 10 ns before start by 5 ns calls.
        s.kernel(100, 110, "gemm_a", 1).kernel(200, 220, "gemm_a", 2).kernel(300, 330, "gemm_a", 3);
        s.kernel(400, 440, "gemm_a", 4);
        // A 3 ns kernel with a 5 ns launch call: shorter than its launch; launched 20 ns before it starts.
        s.kernel(500, 503, "tiny_other", 5, 0, 480);
        // rank 1: gemm_a once (50 ns), no correlation.
        s.kernel(100, 150, "gemm_a", 0, 1);
        runId = storeRun(*ws, s.t);
    }

    void perRank_data() {
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("median");
        QTest::addColumn<qint64>("min");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<double>("stddev");
        QTest::addColumn<double>("percent");
        QTest::newRow("r0 gemm_a") << 0 << "gemm_a" << 4LL << 100LL << 25.0 << 25.0 << 10LL << 40LL
                                   << std::sqrt(500.0 / 3.0) << 100.0 * 100.0 / 103.0;
        QTest::newRow("r0 tiny") << 0 << "tiny_other" << 1LL << 3LL << 3.0 << 3.0 << 3LL << 3LL << 0.0
                                 << 100.0 * 3.0 / 103.0;
        QTest::newRow("r1 gemm_a") << 1 << "gemm_a" << 1LL << 50LL << 50.0 << 50.0 << 50LL << 50LL << 0.0
                                   << 100.0;
        QTest::newRow("all gemm_a") << -1 << "gemm_a" << 5LL << 150LL << 30.0 << 30.0 << 10LL << 50LL
                                    << std::sqrt(250.0) << 100.0 * 150.0 / 153.0;
    }
    void perRank() {
        QFETCH(int, rank);
        QFETCH(QString, name);
        const RunSummaryReader r = summaryReaderOf(*ws, runId);
        const auto rows = r.kernelStats(rank);
        auto it = std::find_if(rows.begin(), rows.end(),
                               [&](const KernelStatRow& k) { return k.name == name.toStdString(); });
        QVERIFY(it != rows.end());
        QTEST(static_cast<qint64>(it->count), "count");
        QTEST(static_cast<qint64>(it->totalNs), "total");
        QTEST(it->meanNs, "mean");
        QTEST(it->medianNs, "median");
        QTEST(static_cast<qint64>(it->minNs), "min");
        QTEST(static_cast<qint64>(it->maxNs), "max");
        QFETCH(double, stddev);
        QFETCH(double, percent);
        QVERIFY(std::fabs(it->stddevNs - stddev) < 1e-9);
        QVERIFY(std::fabs(it->percent - percent) < 1e-9);
    }

    void orderingAndLimit() {
        const RunSummaryReader r = summaryReaderOf(*ws, runId);
        const auto rows = r.kernelStats(0, 1);
        QCOMPARE(rows.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(rows[0].name), QStringLiteral("gemm_a")); // largest total first
        QCOMPARE(QString::fromStdString(rows[0].category), QStringLiteral("gemm"));
    }

    void launchStats() {
        const RunSummaryReader r = summaryReaderOf(*ws, runId);
        const auto ranks = r.ranks();
        QCOMPARE(ranks.size(), std::size_t{2});
        const auto& l = ranks[0].launch;
        QCOMPARE(l.launchedKernels, std::int64_t{5});
        // delays: 10,10,10,10 (default launch 10 ns before start) and 20: median 10, p95 (nearest rank 5) 20.
        QCOMPARE(l.medianDelayNs, Ns{10});
        QCOMPARE(l.p95DelayNs, Ns{20});
        QCOMPARE(l.maxDelayNs, Ns{20});
        QCOMPARE(l.meanDelayNs, 12.0);
        QCOMPARE(l.shorterThanLaunch, std::int64_t{1});
        QCOMPARE(l.meanLaunchCallNs, 5.0);
        QCOMPARE(ranks[1].launch.launchedKernels, std::int64_t{0});
        QCOMPARE(ranks[0].kernelTimeNs, Ns{103});
        QCOMPARE(ranks[0].counts.kernel, std::int64_t{5});
        QCOMPARE(ranks[0].counts.runtime, std::int64_t{5});
    }
};

QTEST_GUILESS_MAIN(TestKernelStats)
#include "tst_kernelstats.moc"
