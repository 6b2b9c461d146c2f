// What-if on the dependency graph (docs/metrics.md, "What-if"): each transformation on a hand-made window
// whose re-timed length is computed by hand in the comments, and predictions on the synthetic study checked
// against the next configuration's measured critical path (the simulator's ground truth).
#include "SmallSynthStudy.h"
#include "core/StepEvents.h"
#include "ingest/IngestPipeline.h"
#include "metrics/CriticalPath.h"
#include "metrics/DependencyGraph.h"
#include "metrics/WhatIf.h"
#include "requests/CriticalPathRequest.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace cnp;

namespace {

StepCpuEvent op(Ns s, Ns e, const char* name) {
    return StepCpuEvent{s, e, 1, 0, false, false, name};
}
StepCpuEvent api(Ns s, Ns e, const char* name, std::int64_t corr) {
    return StepCpuEvent{s, e, 1, corr, true, false, name};
}
StepGpuEvent kernel(Ns s, Ns e, std::int64_t stream, std::int64_t corr, const char* category,
                    const char* name) {
    StepGpuEvent g;
    g.start = s;
    g.end = e;
    g.stream = stream;
    g.correlation = corr;
    g.name = name;
    g.category = category;
    return g;
}

// Op A [0,100] holding launch L [10,30] of gemm kernel K [40,140]; cudaDeviceSynchronize S [110,150].
// Measured path: cpu 10 + launch 30 + K 100 + sync 10 = 150.
StepEvents launchAndSync() {
    StepEvents ev;
    ev.windowEnd = 200;
    ev.cpu = {op(0, 100, "A"), api(10, 30, "cudaLaunchKernel", 1), api(110, 150, "cudaDeviceSynchronize", 2)};
    ev.gpu = {kernel(40, 140, 7, 1, "gemm", "ampere_sgemm")};
    return ev;
}

// Two kernels in a row on one stream, launched back to back: a recompute kernel R [40,90] (launch [10,20])
// and a communication kernel C [90,190] (launch [20,30]), then a stream sync [30,195].
// Measured: cpu 10 + launch 30 + R 50 + gap 0 + C 100 + sync 5 = 195.
StepEvents recomputeThenCollective() {
    StepEvents ev;
    ev.windowEnd = 200;
    ev.cpu = {api(10, 20, "cudaLaunchKernel", 1), api(20, 30, "cudaLaunchKernel", 2),
              api(30, 195, "cudaStreamSynchronize", 3)};
    ev.gpu = {kernel(40, 90, 7, 1, "recompute", "recomputed_gemm"),
              kernel(90, 190, 7, 2, "communication", "ncclDevKernel_AllReduce")};
    return ev;
}

Ns predicted(const StepEvents& ev, const WhatIfScenario& s) {
    return WhatIf::predictedLength(DependencyGraph::build(ev), s);
}

// 2 nodes x 2 GPUs, 3 steps, 2 layers of the synthetic study, ingested into `ws`, runs named by config.
void synthStudy(const QString& dir, const QString& ws, const std::vector<std::string>& configs) {
    testing::smallSynthStudy(dir, ws, configs);
}

} // namespace

class TestWhatIf : public QObject {
    Q_OBJECT

private slots:
    void asMeasured() {
        QCOMPARE(predicted(launchAndSync(), WhatIfScenario{}), Ns(150));
        QCOMPARE(predicted(recomputeThenCollective(), WhatIfScenario{}), Ns(195));
        QVERIFY(WhatIfScenario{}.empty());
        QCOMPARE(WhatIfScenario{}.describe(), std::string("as measured"));
    }

    void scaleCategory_data() {
        QTest::addColumn<QString>("category");
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("length");
        // K 100 -> 50 ends at 90; S returns at max(110 (its start, the wait weighs 0), 90 + 10) = 110.
        QTest::newRow("gemm x0.5") << "gemm" << 0.5 << qint64(110);
        // K 100 -> 120 ends at 160, S at 170.
        QTest::newRow("gemm x1.2") << "gemm" << 1.2 << qint64(170);
        QTest::newRow("attention x0.5 (none)") << "attention" << 0.5 << qint64(150);
    }
    void scaleCategory() {
        QFETCH(QString, category);
        QFETCH(double, factor);
        QFETCH(qint64, length);
        WhatIfScenario s;
        s.categoryFactors = {{category.toStdString(), factor}};
        QCOMPARE(predicted(launchAndSync(), s), Ns(length));
    }

    void scaleNamedKernels() {
        WhatIfScenario s;
        s.categoryFactors = {{"gemm", 2.0}};
        s.kernelFactors = {{"sgemm", 0.5}}; // the name wins over its category
        QCOMPARE(predicted(launchAndSync(), s), Ns(110));
        s.kernelFactors = {{"no such kernel", 0.5}};
        QCOMPARE(predicted(launchAndSync(), s), Ns(250)); // K 200: ends 240, S 250
    }

    // L's 20 ns and its 10 ns launch delay go: L.e = 10, A.e = 80, S.s = 90; K [10, 110]; S.e = 120.
    void removeLaunchOverhead() {
        WhatIfScenario s;
        s.removeLaunchOverhead = true;
        QCOMPARE(predicted(launchAndSync(), s), Ns(120));
    }

    // S no longer waits for K: it returns at its start (110, the wait weighed 0); K still ends at 140.
    void removeSync() {
        WhatIfScenario s;
        s.removedSyncs = {"DeviceSynchronize"};
        QCOMPARE(predicted(launchAndSync(), s), Ns(140));
        s.removedSyncs = {"StreamSynchronize"}; // not this window's call
        QCOMPARE(predicted(launchAndSync(), s), Ns(150));
        s.removedSyncs = {"all"};
        QCOMPARE(predicted(launchAndSync(), s), Ns(140));
    }

    // R, its launch call's 10 ns and its launch delay go: R [10, 10]; L2 starts at 10; C waits on its
    // launch (10 + 0: that edge was not binding) and on R's end (10 + gap 0): C [10, 110], sync 5 -> 115.
    void dropRecomputation() {
        WhatIfScenario s;
        s.dropRecomputation = true;
        QCOMPARE(predicted(recomputeThenCollective(), s), Ns(115));
    }

    // C 100 -> 50: 40 + 50 + 50 + 5 = 145.
    void shrinkCommunication() {
        WhatIfScenario s;
        s.exposedCommunicationFactor = 0.5;
        QCOMPARE(predicted(recomputeThenCollective(), s), Ns(145));
        QCOMPARE(s.describe(), std::string("communication x0.5"));
    }

    // A hostile window (times 6e18 ns apart) scaled 1000x is capped instead of overflowing; two such
    // activities in a row saturate the path at the largest Ns.
    void hugeFactorsSaturate() {
        StepEvents ev;
        ev.windowStart = -3'000'000'000'000'000'000;
        ev.windowEnd = 3'000'000'000'000'000'000;
        ev.cpu = {api(-3'000'000'000'000'000'000, -2'999'999'999'999'999'000, "cudaLaunchKernel", 1)};
        ev.gpu = {kernel(-2'999'999'999'999'999'000, 3'000'000'000'000'000'000, 7, 1, "gemm", "k")};
        WhatIfScenario s;
        s.categoryFactors = {{"gemm", 1000}};
        const Ns p = predicted(ev, s);
        QCOMPARE(p, Ns(9'000'000'000'000'001'000)); // launch delay 1000 + the kernel capped at 9e18
        QCOMPARE(predicted(ev, WhatIfScenario{}), Ns(6'000'000'000'000'000'000));
        ev.cpu.push_back(api(-2'999'999'999'999'999'000, -2'999'999'999'999'998'000, "cudaLaunchKernel", 2));
        ev.gpu.push_back(kernel(3'000'000'000'000'000'000, 3'000'000'000'000'000'000, 7, 2, "gemm", "k2"));
        ev.gpu[0].end = 0;
        ev.gpu[1].start = 0;
        s.categoryFactors = {{"gemm", 1000}};
        QCOMPARE(predicted(ev, s), std::numeric_limits<Ns>::max());
    }

    // The simulator's ground truth: from each configuration's trace, the transformation the next
    // configuration makes (docs/synth.md) predicts the next one's measured critical path within 5 %:
    // ACCL's collectives run 1.95x faster; selective checkpointing recomputes 8 of 32 layers.
    void synthStudyPredictions() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ws = dir.filePath("synth.cnpdb");
        synthStudy(dir.path(), ws,
                   {"Base", "Base+ACCL", "AC2+ACCL+CompilerOpt", "AC2+ACCL+CompilerOpt+CkptOpt"});
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        struct Step {
            const char* from;
            const char* to;
            WhatIfScenario scenario;
        };
        WhatIfScenario accl, ckpt;
        accl.exposedCommunicationFactor = 1.0 / 1.95;
        ckpt.categoryFactors = {{"recompute", 0.25}};
        for (const Step& step : {Step{"Base", "Base+ACCL", accl},
                                 Step{"AC2+ACCL+CompilerOpt", "AC2+ACCL+CompilerOpt+CkptOpt", ckpt}}) {
            const auto prediction = computeWhatIf(w, step.from, WindowChoice{}, step.scenario);
            const auto next = computeWhatIf(w, step.to, WindowChoice{}, WhatIfScenario{});
            QCOMPARE(prediction.windows.size(), std::size_t(3));
            QVERIFY(prediction.medianPredicted < prediction.medianMeasured);
            QVERIFY(prediction.predictedLow <= prediction.medianPredicted + 1);
            const double error = std::abs(static_cast<double>(prediction.medianPredicted) /
                                              static_cast<double>(next.medianMeasured) -
                                          1.0);
            QVERIFY2(error < 0.05, (std::string(step.to) + ": " + std::to_string(error)).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
