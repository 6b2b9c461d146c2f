// Step detection on hand-built traces: CPU ranges matching the step pattern, projected onto the GPU via the
// correlation ids of launches inside each range (docs/metrics.md "Windows"). Expected windows by hand.
#include "tst_analysis_synthetic.h"

#include "core/InputError.h"

#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

namespace {
QString describe(const TraceData& t) {
    QStringList out;
    for (const auto& s : t.steps)
        out << QStringLiteral("r%1#%2 %3 cpu[%4,%5) gpu[%6,%7)")
                   .arg(s.rank)
                   .arg(s.index)
                   .arg(QString::fromStdString(t.strings.at(s.name)))
                   .arg(s.cpuStart)
                   .arg(s.cpuEnd)
                   .arg(s.gpuStart)
                   .arg(s.gpuEnd);
    return out.join(" | ");
}
} // namespace

class TestStepDetector : public QObject {
    Q_OBJECT
private slots:
    void threeSteps() {
        SyntheticTrace s("t");
        s.range(0, 100, "ProfilerStep#1").range(100, 200, "ProfilerStep#2").range(200, 300, "ProfilerStep#3");
        // launches at 10, 110, 120, 210 (kernel start - 10 by default unless launchAt given)
        s.kernel(50, 150, "a", 1, 0, 10).kernel(160, 170, "b", 2, 0, 110).kernel(175, 260, "c", 3, 0, 120);
        s.kernel(270, 400, "d", 4, 0, 210);
        detectSteps(s.t);
        // Steps are numbered by their names (ProfilerStep#1 is step 1). Step 1 ends where step 2's GPU work
        // starts (160); the last ends at its own last end (400).
        QCOMPARE(describe(s.t), QStringLiteral("r0#1 ProfilerStep#1 cpu[0,100) gpu[50,160) | "
                                               "r0#2 ProfilerStep#2 cpu[100,200) gpu[160,270) | "
                                               "r0#3 ProfilerStep#3 cpu[200,300) gpu[270,400)"));
    }

    void nestedDuplicateDropped() {
        SyntheticTrace s("t");
        s.range(0, 100, "ProfilerStep#1").range(10, 20, "ProfilerStep#1", 0, CpuRangeKind::CpuOp);
        s.kernel(30, 40, "a", 1, 0, 15);
        detectSteps(s.t);
        QCOMPARE(describe(s.t), QStringLiteral("r0#1 ProfilerStep#1 cpu[0,100) gpu[30,40)"));
    }

    void fallbackPattern_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("matches");
        QTest::newRow("train_step") << "train_step" << true;
        QTest::newRow("step") << "step" << true;
        QTest::newRow("step 3") << "step 3" << true;
        QTest::newRow("step_fn") << "step_fn" << false; // '_' is a word character: no \b
        QTest::newRow("train_steps") << "train_steps" << false;
        QTest::newRow("my_train_step") << "my_train_step" << false; // anchored
    }
    void fallbackPattern() {
        QFETCH(QString, name);
        QFETCH(bool, matches);
        SyntheticTrace s("t");
        s.range(0, 100, name.toStdString()).kernel(20, 30, "k", 1, 0, 5);
        detectSteps(s.t);
        QCOMPARE(s.t.steps.size(), std::size_t(matches ? 1 : 0));
    }

    void profilerStepWinsOverTrainStep() {
        SyntheticTrace s("t");
        s.range(0, 100, "ProfilerStep#7").range(5, 90, "train_step").kernel(20, 30, "k", 1, 0, 10);
        detectSteps(s.t);
        QCOMPARE(describe(s.t), QStringLiteral("r0#7 ProfilerStep#7 cpu[0,100) gpu[20,30)"));
    }

    void stepWithoutGpuWork() {
        SyntheticTrace s("t");
        s.range(0, 100, "ProfilerStep#1").range(100, 200, "ProfilerStep#2").range(200, 300, "ProfilerStep#3");
        s.kernel(50, 60, "a", 1, 0, 10).kernel(250, 260, "b", 2, 0, 210);
        detectSteps(s.t);
        // Step 2 launched nothing: -1; step 1's window runs to step 3's GPU start.
        QCOMPARE(describe(s.t), QStringLiteral("r0#1 ProfilerStep#1 cpu[0,100) gpu[50,250) | "
                                               "r0#2 ProfilerStep#2 cpu[100,200) gpu[-1,-1) | "
                                               "r0#3 ProfilerStep#3 cpu[200,300) gpu[250,260)"));
    }

    void memcpyAndFlowsCount() {
        SyntheticTrace s("t");
        s.range(0, 100, "ProfilerStep#1", 0, CpuRangeKind::Nvtx);
        s.memcpy(40, 45, 9); // correlation 9: launched by a flow only (no API call recorded)
        s.t.flows.push_back(Flow{9, 0, 20, 1, 40, 0});
        s.kernel(60, 80, "k", 0); // no correlation: not attributed
        detectSteps(s.t);
        QCOMPARE(describe(s.t), QStringLiteral("r0#1 ProfilerStep#1 cpu[0,100) gpu[40,45)"));
    }

    void pythonFunctionsIgnored() {
        SyntheticTrace s("t");
        s.range(0, 100, "step", 0, CpuRangeKind::PythonFunction).kernel(20, 30, "k", 1, 0, 10);
        detectSteps(s.t);
        QCOMPARE(s.t.steps.size(), std::size_t{0});
    }

    void perRankProjection() {
        SyntheticTrace s("t", "", 2);
        s.range(0, 100, "ProfilerStep#1", 0).range(0, 100, "ProfilerStep#1", 1);
        s.kernel(20, 50, "a", 1, 0, 10).kernel(30, 90, "a", 1, 1, 10); // same correlation id on both ranks
        detectSteps(s.t);
        QCOMPARE(describe(s.t), QStringLiteral("r0#1 ProfilerStep#1 cpu[0,100) gpu[20,50) | "
                                               "r1#1 ProfilerStep#1 cpu[0,100) gpu[30,90)"));
    }

    void customPatternAndBadRegex() {
        SyntheticTrace s("t");
        s.range(0, 100, "iteration 1").kernel(20, 30, "k", 1, 0, 10);
        StepPattern p;
        p.patterns = {"^iteration"};
        detectSteps(s.t, p);
        QCOMPARE(s.t.steps.size(), std::size_t{1});
        p.patterns = {"("};
        QVERIFY_THROWS_EXCEPTION(InputError, detectSteps(s.t, p));
    }

    // One numbering scheme per run: names with increasing numbers are the step numbers (HTA's traces start
    // at ProfilerStep#4); when one name has no number, or a rank's numbers do not increase, every step of
    // the run is numbered by its 0-based ordinal.
    void numbering_data() {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QList<int>>("indexes");
        QTest::newRow("profiler steps")
            << QStringList{"ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6"} << QList<int>{4, 5, 6};
        QTest::newRow("train_step n") << QStringList{"train_step 12", "train_step 13"} << QList<int>{12, 13};
        QTest::newRow("unnumbered") << QStringList{"train_step", "train_step"} << QList<int>{0, 1};
        QTest::newRow("one unnumbered") << QStringList{"step 1", "step"} << QList<int>{0, 1};
        QTest::newRow("not increasing") << QStringList{"step 5", "step 2"} << QList<int>{0, 1};
    }
    void numbering() {
        QFETCH(QStringList, names);
        QFETCH(QList<int>, indexes);
        SyntheticTrace s("t");
        for (int i = 0; i < names.size(); ++i)
            s.range(100 * i, 100 * i + 100, names[i].toStdString())
                .kernel(100 * i + 20, 100 * i + 30, "k", i + 1, 0, 100 * i + 10);
        detectSteps(s.t);
        QList<int> got;
        for (const auto& st : s.t.steps)
            got << st.index;
        QCOMPARE(got, indexes);
    }
};

QTEST_APPLESS_MAIN(TestStepDetector)
#include "tst_stepdetector.moc"
