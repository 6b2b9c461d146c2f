// "Predict, then measure" on the synthetic study (docs/synth.md: the simulator's ground truth): each step
// whose expectation the what-if vocabulary can state — ACCL's 1.95x faster collectives (comm=0.5128),
// selective checkpointing's 8 of 32 recomputed layers (recompute=0.25) — is predicted from the previous
// configuration's trace within 5 % of the measured median step; steps without an expectation are not
// predicted; a bad stored expectation is a note; and the prediction never reads the run it predicts (the
// same prediction with that run removed from the workspace).
#include "SmallSynthStudy.h"
#include "ingest/IngestPipeline.h"
#include "requests/AblationRequest.h"
#include "requests/PredictionRequest.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace cnp;

namespace {

const std::vector<std::string> kConfigs = {"Base", "Base+ACCL", "AC2+ACCL+CompilerOpt",
                                           "AC2+ACCL+CompilerOpt+CkptOpt"};

// 2 nodes x 2 GPUs, 3 steps, 2 layers of the synthetic study (as tst_whatif), runs named by config, with
// the two expectations the vocabulary can state.
void synthStudy(const QString& dir, const QString& ws) {
    testing::smallSynthStudy(dir, ws, kConfigs);
    Workspace w(ws.toStdString(), Workspace::Mode::ReadWrite);
    w.setRunAttribute(w.runOrThrow("Base+ACCL").id, kExpectAttribute, "comm=0.5128");
    w.setRunAttribute(w.runOrThrow("AC2+ACCL+CompilerOpt+CkptOpt").id, kExpectAttribute, "recompute=0.25");
}

AblationOptions studyOrder() {
    AblationOptions o;
    o.order = kConfigs;
    return o;
}

} // namespace

class TestPredictionRequest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString ws_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        ws_ = dir_.filePath("synth.cnpdb");
        synthStudy(dir_.path(), ws_);
    }

    void predictsWithinFivePercent() {
        const Workspace w(ws_.toStdString(), Workspace::Mode::ReadOnly);
        const AblationResult ablation = computeAblation(w, studyOrder());
        const AblationPredictions p = predictAblation(w, ablation);
        QVERIFY(p.notes.empty());
        QCOMPARE(p.steps.size(), std::size_t(2)); // CompilerOpt states no expectation: not predicted
        QCOMPARE(p.steps[0].from, std::string("Base"));
        QCOMPARE(p.steps[0].to, std::string("Base+ACCL"));
        QCOMPARE(p.steps[0].fromRun, std::string("Base"));
        QCOMPARE(p.steps[1].from, std::string("AC2+ACCL+CompilerOpt"));
        QCOMPARE(p.steps[1].expectation, std::string("scale.recompute=0.25"));
        for (const StepPrediction& s : p.steps) {
            QCOMPARE(s.measuredStepNs, ablation.configs[s.to == "Base+ACCL" ? 1 : 3].tracedMedianStepNs);
            QVERIFY(s.ratio < 1.0);
            QVERIFY2(std::abs(s.error) < 0.05,
                     (s.to + ": error " + std::to_string(s.error) + ", predicted " +
                      std::to_string(s.predictedStepNs) + ", measured " + std::to_string(s.measuredStepNs))
                         .c_str());
            QVERIFY(!s.missCategory.empty());
        }
    }

    void aBadExpectationIsANote() {
        const Workspace w(ws_.toStdString(), Workspace::Mode::ReadOnly);
        const AblationResult ablation = computeAblation(w, studyOrder());
        const AblationPredictions p = predictAblation(w, ablation, {{"Base+ACCL", "comm=fast"}});
        QCOMPARE(p.steps.size(), std::size_t(1));
        QCOMPARE(p.notes.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(p.notes[0]).contains("Base+ACCL"), p.notes[0].c_str());
        QVERIFY2(QString::fromStdString(p.notes[0]).contains("'fast' is not a factor"), p.notes[0].c_str());
    }

    // The ablation's figures of B are what the prediction is compared with; the prediction itself reads
    // only A: with B's run (events and all) removed, it is the same to the nanosecond.
    void neverReadsThePredictedRun() {
        const QString copy = dir_.filePath("copy.cnpdb");
        QVERIFY(QFile::copy(ws_, copy));
        AblationResult ablation;
        AblationPredictions before;
        {
            const Workspace w(ws_.toStdString(), Workspace::Mode::ReadOnly);
            ablation = computeAblation(w, studyOrder());
            before = predictAblation(w, ablation);
        }
        Workspace w(copy.toStdString(), Workspace::Mode::ReadWrite);
        w.removeRun("Base+ACCL");
        w.removeRun("AC2+ACCL+CompilerOpt+CkptOpt");
        const AblationPredictions after = predictAblation(
            w, ablation, {{"Base+ACCL", "comm=0.5128"}, {"AC2+ACCL+CompilerOpt+CkptOpt", "recompute=0.25"}});
        QCOMPARE(after.steps.size(), before.steps.size());
        for (std::size_t i = 0; i < after.steps.size(); ++i) {
            QCOMPARE(after.steps[i].ratio, before.steps[i].ratio);
            QCOMPARE(after.steps[i].predictedStepNs, before.steps[i].predictedStepNs);
            QCOMPARE(after.steps[i].missCategory, before.steps[i].missCategory);
        }
    }
};

QTEST_GUILESS_MAIN(TestPredictionRequest)
#include "tst_predictionrequest.moc"
