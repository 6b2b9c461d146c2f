// Run diff on hand-built runs (classes by hand, see comments) and kernel-name normalisation.
#include "tst_analysis_synthetic.h"

#include "core/InputError.h"
#include "requests/RunDiffRequest.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

class TestRunDiff : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<Workspace> ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = std::make_unique<Workspace>(dir.filePath("diff.cnpdb").toStdString(),
                                         Workspace::Mode::CreateIfMissing);
        SyntheticTrace a("A");
        a.kernel(0, 100, "k1").kernel(200, 300, "k1");  // 2 x 100
        a.kernel(400, 1400, "k2");                      // 1000
        a.kernel(1500, 1600, "k3");                     // removed in B
        a.kernel(2000, 3000, "k5");                     // 1000 -> 1010: within 2% and 1 us
        a.kernel(4000, 5000, "k6");                     // 1000 -> 1100: slower
        a.kernel(6000, 6100, "triton_poi_fused_add_3"); // renamed suffix in B
        storeRun(*ws, a.t);
        SyntheticTrace b("B");
        b.kernel(0, 100, "k1").kernel(200, 300, "k1");
        b.kernel(400, 900, "k2");   // 500: faster by 500
        b.kernel(1000, 1050, "k4"); // added
        b.kernel(2000, 3010, "k5");
        b.kernel(4000, 5100, "k6");
        b.kernel(6000, 6150, "triton_poi_fused_add_7");
        storeRun(*ws, b.t);
    }

    void exactNames() {
        const auto d = diffRuns(*ws, "A", "B");
        // added k4 + triton_..._7; removed k3 + triton_..._3; faster k2; slower k6; unchanged k1, k5.
        QCOMPARE(d.added, std::int64_t{2});
        QCOMPARE(d.removed, std::int64_t{2});
        QCOMPARE(d.faster, std::int64_t{1});
        QCOMPARE(d.slower, std::int64_t{1});
        QCOMPARE(d.unchanged, std::int64_t{2});
        QStringList order;
        for (const auto& k : d.kernels)
            order << QString::fromStdString(k.name + ":" + k.cls + ":" + std::to_string(k.delta));
        // Sorted by |delta| descending, ties by name.
        QCOMPARE(order.join(' '),
                 QStringLiteral("k2:faster:-500 triton_poi_fused_add_7:added:150 k3:removed:-100 "
                                "k6:slower:100 triton_poi_fused_add_3:removed:-100 k4:added:50 "
                                "k5:unchanged:10 k1:unchanged:0"));
        QCOMPARE(d.kernels[0].name, std::string("k2"));
        QCOMPARE(d.kernels[0].totalA, Ns{1000});
        QCOMPARE(d.kernels[0].totalB, Ns{500});
        QCOMPARE(d.kernels.back().name, std::string("k1"));
        QCOMPARE(d.totalA, Ns{3400});
        QCOMPARE(d.totalB, Ns{3010}); // 200 + 500 + 50 + 1010 + 1100 + 150
    }

    void normalisedNames() {
        RunDiffOptions o;
        o.normalize = true;
        const auto d = diffRuns(*ws, "A", "B", o);
        auto it = std::find_if(d.kernels.begin(), d.kernels.end(),
                               [](const KernelDiffRow& k) { return k.name == "triton_poi_fused_add"; });
        QVERIFY(it != d.kernels.end());
        QCOMPARE(it->cls, std::string("slower")); // 100 -> 150
        QCOMPARE(it->delta, Ns{50});
        QCOMPARE(d.added, std::int64_t{1});
        QCOMPARE(d.removed, std::int64_t{1});
    }

    void normalise_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("triton suffix") << "triton_poi_fused_add_3"
                                       << "triton_poi_fused_add";
        QTest::newRow("triton multi suffix") << "triton_red_fused_sum_12_0"
                                             << "triton_red_fused_sum";
        QTest::newRow("templates and params")
            << "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, float)"
            << "void at::native::vectorized_elementwise_kernel";
        QTest::newRow("hex hash token") << "fmha_kernel 0xdeadbeef"
                                        << "fmha_kernel";
        QTest::newRow("hash suffix") << "cutlass_kernel_a1b2c3d4e5f6"
                                     << "cutlass_kernel";
        QTest::newRow("plain") << "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"
                               << "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT";
        QTest::newRow("only digits kept") << "12345"
                                          << "12345";
    }
    void normalise() {
        QFETCH(QString, name);
        QTEST(QString::fromStdString(normaliseKernelName(name.toStdString())), "expected");
    }

    void unknownRun() { QVERIFY_THROWS_EXCEPTION(InputError, diffRuns(*ws, "A", "nope")); }

    // By id (the GUI's way) is the same diff as by name (the CLI's); an id no run has is an InputError.
    void byRunId() {
        const RunId a = ws->runOrThrow("A").id, b = ws->runOrThrow("B").id;
        const auto byName = diffRuns(*ws, "A", "B"), byId = diffRuns(*ws, a, b);
        QCOMPARE(byId.runA, byName.runA);
        QCOMPARE(byId.runB, byName.runB);
        QCOMPARE(byId.kernels.size(), byName.kernels.size());
        for (std::size_t i = 0; i < byId.kernels.size(); ++i) {
            QCOMPARE(byId.kernels[i].name, byName.kernels[i].name);
            QCOMPARE(byId.kernels[i].totalB - byId.kernels[i].totalA,
                     byName.kernels[i].totalB - byName.kernels[i].totalA);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, diffRuns(*ws, a, RunId(a.value() + b.value() + 1)));
    }

    void stepDistribution_data() {
        QTest::addColumn<QList<qint64>>("steps");
        QTest::addColumn<QList<double>>("five"); // min, q1, median, q3, max (numpy.percentile by hand)
        QTest::newRow("empty") << QList<qint64>{} << QList<double>{0, 0, 0, 0, 0};
        QTest::newRow("one") << QList<qint64>{7} << QList<double>{7, 7, 7, 7, 7};
        // Sorted 10 20 30 40: q1 at 0.75 -> 17.5, median at 1.5 -> 25, q3 at 2.25 -> 32.5.
        QTest::newRow("four unsorted")
            << QList<qint64>{40, 10, 30, 20} << QList<double>{10, 17.5, 25, 32.5, 40};
        QTest::newRow("five") << QList<qint64>{1, 2, 3, 4, 100} << QList<double>{1, 2, 3, 4, 100};
    }
    void stepDistribution() {
        QFETCH(QList<qint64>, steps);
        QFETCH(QList<double>, five);
        const auto d = summariseSteps(std::vector<Ns>(steps.begin(), steps.end()));
        QCOMPARE(d.count, std::size_t(steps.size()));
        QCOMPARE(d.minNs, five[0]);
        QCOMPARE(d.q1Ns, five[1]);
        QCOMPARE(d.medianNs, five[2]);
        QCOMPARE(d.q3Ns, five[3]);
        QCOMPARE(d.maxNs, five[4]);
    }
};

QTEST_GUILESS_MAIN(TestRunDiff)
#include "tst_rundiff.moc"
