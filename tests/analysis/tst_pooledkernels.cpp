// Kernels of a configuration pooled over its repeats (metrics/PooledKernels) and their changes between
// configurations (metrics/PooledKernelDiff), on the hand-computed two-repeat workspace of
// tests/common/RepeatFixture.h.
#include "RepeatFixture.h"

#include "metrics/PooledKernelDiff.h"
#include "requests/PooledKernelsRequest.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

namespace {
constexpr const char* kGemm = "sm90_xmma_gemm_bf16";
constexpr const char* kAllReduce = "ncclDevKernel_AllReduce_Sum_bf16";
} // namespace

class TestPooledKernels : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<Workspace> ws_;

    std::vector<RunId> ids(std::initializer_list<const char*> names) const {
        std::vector<RunId> out;
        for (const char* n : names)
            out.push_back(ws_->runOrThrow(n).id);
        return out;
    }

private slots:
    void initTestCase() {
        ws_ = std::make_unique<Workspace>(dir_.filePath("ws.cnpdb").toStdString(),
                                          Workspace::Mode::CreateIfMissing);
        testing::buildRepeatFixture(*ws_);
    }

    void poolsEveryRepeat_data() {
        QTest::addColumn<QStringList>("runs");
        QTest::addColumn<qint64>("gpuSteps");
        QTest::addColumn<qint64>("calls");
        QTest::addColumn<qint64>("gemmTotal");
        QTest::addColumn<double>("gemmPerStep");
        QTest::addColumn<double>("allReducePerStep");
        QTest::newRow("A, one repeat") << QStringList{"a-r1"} << qint64(2) << qint64(2) << qint64(16'000'000)
                                       << 8'000'000.0 << 3'000'000.0;
        QTest::newRow("A, both repeats") << QStringList{"a-r1", "a-r2"} << qint64(5) << qint64(5)
                                         << qint64(44'800'000) << 8'960'000.0 << 3'360'000.0;
        // b-r2 has two ranks: 2 steps on each count 4 GPU-steps.
        QTest::newRow("B, both repeats, 1 + 2 ranks") << QStringList{"b-r1", "b-r2"} << qint64(8) << qint64(8)
                                                      << qint64(44'800'000) << 5'600'000.0 << 2'100'000.0;
    }
    void poolsEveryRepeat() {
        QFETCH(QStringList, runs);
        QFETCH(qint64, gpuSteps);
        QFETCH(qint64, calls);
        QFETCH(qint64, gemmTotal);
        QFETCH(double, gemmPerStep);
        QFETCH(double, allReducePerStep);
        std::vector<RunId> runIds;
        for (const auto& r : runs)
            runIds.push_back(ws_->runOrThrow(r.toStdString()).id);
        const auto p = poolKernels(*ws_, runIds);
        QCOMPARE(p.runs, static_cast<std::size_t>(runs.size()));
        QCOMPARE(p.gpuSteps, gpuSteps);
        QCOMPARE(p.rows.size(), std::size_t(2));
        const auto& gemm = p.rows[0]; // 0.8 L beats 0.3 L: gemm first
        QCOMPARE(gemm.name, std::string(kGemm));
        QCOMPARE(gemm.category, std::string("gemm"));
        QCOMPARE(gemm.count, calls);
        QCOMPARE(gemm.totalNs, gemmTotal);
        QCOMPARE(gemm.perStepNs, gemmPerStep);
        QCOMPARE(gemm.perCallNs, static_cast<double>(gemmTotal) / static_cast<double>(calls));
        QCOMPARE(gemm.callsPerStep, 1.0);
        QCOMPARE(p.rows[1].name, std::string(kAllReduce));
        QCOMPARE(p.rows[1].perStepNs, allReducePerStep);
        QCOMPARE(p.totalNs, gemm.totalNs + p.rows[1].totalNs);
        QVERIFY(qAbs(gemm.percent - 100.0 * 8.0 / 11.0) < 1e-9); // 0.8 L of 1.1 L in every step
    }

    // A -> B per GPU-step: gemm 8.96 -> 5.6 ms, all-reduce 3.36 -> 2.1 ms; largest change first.
    void diffPerGpuStep() {
        const auto a = poolKernels(*ws_, ids({"a-r1", "a-r2"}));
        const auto b = poolKernels(*ws_, ids({"b-r1", "b-r2"}));
        const auto d = diffPooledKernels(a, b);
        QCOMPARE(d.faster, std::int64_t(2));
        QCOMPARE(d.slower + d.added + d.removed + d.unchanged, std::int64_t(0));
        QCOMPARE(d.kernels.size(), std::size_t(2));
        QCOMPARE(d.kernels[0].name, std::string(kGemm));
        QCOMPARE(d.kernels[0].cls, std::string("faster"));
        QCOMPARE(d.kernels[0].perStepA, 8'960'000.0);
        QCOMPARE(d.kernels[0].perStepB, 5'600'000.0);
        QVERIFY(qAbs(d.kernels[0].delta() + 3'360'000.0) < 1e-6);
        QCOMPARE(d.kernels[1].name, std::string(kAllReduce));
        QVERIFY(qAbs(d.kernels[1].delta() + 1'260'000.0) < 1e-6);
        QCOMPARE(d.kernels[1].callsPerStepA, 1.0);
        QCOMPARE(d.kernels[1].callsPerStepB, 1.0);
    }

    // The run diff's rule on per-step values: a kernel only on one side is added / removed; a change within
    // 2% of A and 1 us per call is unchanged.
    void classes_data() {
        QTest::addColumn<double>("callsA");
        QTest::addColumn<double>("callsB");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<QString>("cls");
        QTest::newRow("added") << 0.0 << 2.0 << 0.0 << 500.0 << "added";
        QTest::newRow("removed") << 1.5 << 0.0 << 900.0 << 0.0 << "removed";
        QTest::newRow("within 2% and 1 us") << 1.0 << 1.0 << 100'000.0 << 100'900.0 << "unchanged";
        QTest::newRow("within 2%, over 1 us per call") << 1.0 << 1.0 << 100'000.0 << 101'500.0 << "slower";
        QTest::newRow("fractional calls: 2.5 us allowed")
            << 2.5 << 2.0 << 200'000.0 << 197'600.0 << "unchanged";
        QTest::newRow("faster") << 2.0 << 2.0 << 200'000.0 << 150'000.0 << "faster";
    }
    void classes() {
        QFETCH(double, callsA);
        QFETCH(double, callsB);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(QString, cls);
        QCOMPARE(QString(kernelChangeClass(callsA, callsB, a, b, RunDiffOptions{})), cls);
    }
};

QTEST_APPLESS_MAIN(TestPooledKernels)
#include "tst_pooledkernels.moc"
