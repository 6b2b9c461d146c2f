// One step of "predict, then measure" (metrics/StepPrediction.h) on hand-made ablation figures: the
// predicted step is A's median x the what-if ratio, the error against B's measured median, and the
// biggest miss the category whose predicted change (worked out in the comments) differs most from B's
// measured attribution.
#include "metrics/StepPrediction.h"

#include <QtTest>

using namespace cnp;

namespace {

AblationConfig config(const char* name, Ns median, Ns mean, ExclusiveNs exclusive,
                      std::optional<ExclusiveNs> attribution) {
    AblationConfig c;
    c.config = name;
    c.tracedMedianStepNs = c.medianStepNs = median;
    c.meanStepNs = mean;
    c.exclusiveMeanNs = std::move(exclusive);
    c.attributionVsPreviousNs = std::move(attribution);
    return c;
}

} // namespace

class TestStepPrediction : public QObject {
    Q_OBJECT
private slots:
    void predicts_data() {
        QTest::addColumn<QString>("expectation");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<Ns>("predicted");
        QTest::addColumn<double>("error");
        QTest::addColumn<QString>("miss");
        QTest::addColumn<Ns>("missPredicted");
        QTest::addColumn<Ns>("missMeasured");
        // A: 1000 ns, gemm 600, communication 300, idle 100. B (850 ns): communication -120, idle -60,
        // gemm +30. comm x0.5, ratio 0.85: predicted 850 (error 0); predicted changes: communication
        // -150, idle the rest of -150 = 0. Misses: communication 30, gemm 30, idle 60: idle.
        QTest::newRow("comm") << "comm=0.5" << 0.85 << Ns(850) << 0.0 << "idle" << Ns(0) << Ns(-60);
        // The same A and B, gemm x0.5 at ratio 0.7: predicted 700 (700 / 850 - 1 = -0.17647); gemm -300,
        // idle -300 - (-300) = 0. Misses: gemm |30 + 300| = 330: gemm.
        QTest::newRow("gemm") << "scale.gemm=0.5" << 0.7 << Ns(700) << (700.0 / 850.0 - 1.0) << "gemm"
                              << Ns(-300) << Ns(30);
    }
    void predicts() {
        QFETCH(QString, expectation);
        QFETCH(double, ratio);
        QFETCH(Ns, predicted);
        QFETCH(double, error);
        QFETCH(QString, miss);
        QFETCH(Ns, missPredicted);
        QFETCH(Ns, missMeasured);
        const AblationConfig a =
            config("A", 1000, 1000, {{"gemm", 600}, {"communication", 300}, {"idle", 100}}, std::nullopt);
        const AblationConfig b = config("B", 850, 850, {{"gemm", 630}, {"communication", 180}, {"idle", 40}},
                                        ExclusiveNs{{"gemm", 30}, {"communication", -120}, {"idle", -60}});
        WhatIfScenario s;
        if (expectation == "comm=0.5")
            s.exposedCommunicationFactor = 0.5;
        else
            s.categoryFactors = {{"gemm", 0.5}};
        const StepPrediction p = predictStep(a, b, s, ratio);
        QCOMPARE(QString::fromStdString(p.expectation), expectation);
        QCOMPARE(p.from, std::string("A"));
        QCOMPARE(p.to, std::string("B"));
        QCOMPARE(p.fromStepNs, Ns(1000));
        QCOMPARE(p.predictedStepNs, predicted);
        QCOMPARE(p.measuredStepNs, Ns(850));
        QVERIFY(std::abs(p.error - error) < 1e-12);
        QCOMPARE(QString::fromStdString(p.missCategory), miss);
        QCOMPARE(p.missPredictedNs, missPredicted);
        QCOMPARE(p.missMeasuredNs, missMeasured);
    }

    // Dropping recomputation removes A's recompute time: A 1000 ns (gemm 500, recompute 200, idle 300),
    // ratio 0.8 -> 800 against B's 820 (-2.44 %); predicted recompute -200, idle 0; B measured recompute
    // -150, gemm -20, idle -30: the biggest miss is recompute (50).
    void dropRecompute() {
        const AblationConfig a =
            config("A", 1000, 1000, {{"gemm", 500}, {"recompute", 200}, {"idle", 300}}, std::nullopt);
        const AblationConfig b = config("B", 820, 800, {{"gemm", 480}, {"recompute", 50}, {"idle", 270}},
                                        ExclusiveNs{{"gemm", -20}, {"recompute", -150}, {"idle", -30}});
        WhatIfScenario s;
        s.dropRecomputation = true;
        const StepPrediction p = predictStep(a, b, s, 0.8);
        QCOMPARE(p.predictedStepNs, Ns(800));
        QVERIFY(std::abs(p.error - (800.0 / 820.0 - 1.0)) < 1e-12);
        QCOMPARE(p.missCategory, std::string("recompute"));
        QCOMPARE(p.missPredictedNs, Ns(-200));
        QCOMPARE(p.missMeasuredNs, Ns(-150));
    }
};

QTEST_GUILESS_MAIN(TestStepPrediction)
#include "tst_stepprediction.moc"
