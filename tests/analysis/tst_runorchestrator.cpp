// RunOrchestrator's per-run timeout counts from when the workload runs on every rank
// (RunningJob::workloadRunning), not from submission: a job that a cluster queues (Kueue), schedules and
// pulls images for longer than the timeout is not cut for it (issue 28.2; before, the clock started at
// submission and such a job "timed out after 1 s" while still pending). A job that does run past its
// timeout is still stopped. Played by an in-process backend whose job stays "pending" for a stated time
// and then, once it says it runs, ends on the next poll (so nothing here depends on how fast the machine
// is: only the order of poll and workloadRunning matters).
#include "TestPlans.h"
#include "launch/JobPlanner.h"
#include "launch/RunOrchestrator.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>

using namespace cnp;
using namespace cnp::launch;
using Clock = std::chrono::steady_clock;

namespace {

// Pending for `pendingFor`, then running; ends with exit code 3 on the poll after the one that saw it run,
// or never when `endless`.
class PendingThenRunningJob : public RunningJob {
public:
    PendingThenRunningJob(std::chrono::milliseconds pendingFor, bool endless)
        : until_(Clock::now() + pendingFor), endless_(endless) {}
    std::optional<int> poll() override {
        if (cancelled_)
            return 130;
        if (running_ && !endless_)
            return 3;
        running_ = Clock::now() >= until_;
        return std::nullopt;
    }
    bool workloadRunning() const override { return running_; }
    void cancel() override { cancelled_ = true; }
    std::string collect() override { return {}; }

private:
    Clock::time_point until_;
    bool endless_;
    bool running_ = false, cancelled_ = false;
};

class QueueingBackend : public Backend {
public:
    QueueingBackend(std::chrono::milliseconds pendingFor, bool endless)
        : pendingFor_(pendingFor), endless_(endless) {}
    std::string name() const override { return "test"; }
    std::string describe(const JobSpec&) const override { return {}; }
    std::unique_ptr<RunningJob> start(const JobSpec&, const ProgressListener&) override {
        return std::make_unique<PendingThenRunningJob>(pendingFor_, endless_);
    }

private:
    std::chrono::milliseconds pendingFor_;
    bool endless_;
};

} // namespace

class TestRunOrchestrator : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void timeoutCountsFromTheWorkloadRunning_data() {
        QTest::addColumn<int>("pendingMs");
        QTest::addColumn<bool>("endless");
        QTest::addColumn<QString>("message"); // part of the failed job's message
        // Pending longer than the 1 s timeout, then it runs and fails on its own: its own failure, no
        // timeout.
        QTest::newRow("queued past the timeout") << 1600 << false << "exit code 3";
        // Runs from the start and never ends: the timeout still stops it.
        QTest::newRow("runs past the timeout") << 0 << true << "timed out after 1 s";
    }
    void timeoutCountsFromTheWorkloadRunning() {
        QFETCH(int, pendingMs);
        QFETCH(bool, endless);
        QFETCH(QString, message);
        auto plan = testing::twoConfigPlan({"python", "train.py"});
        plan.configurations.resize(1);
        plan.timeoutSeconds = 1;
        Workspace ws(dir_.filePath(QString("ws-%1.cnpdb").arg(pendingMs)).toStdString(),
                     Workspace::Mode::CreateIfMissing);
        QueueingBackend backend(std::chrono::milliseconds(pendingMs), endless);
        std::vector<ProgressEvent> events;
        RunOrchestrator orch(plan, ws, backend, [&](const ProgressEvent& e) { events.push_back(e); });
        orch.setPollInterval(20);
        const std::atomic<bool> cancel{false};
        const RunSummary s = orch.run(planJobs(plan, {}, dir_.filePath("runs").toStdString()), cancel);
        QCOMPARE(s.failed, 1);
        QString failure;
        for (const auto& e : events)
            if (e.state == JobState::Failed && !e.rank)
                failure = QString::fromStdString(e.message);
        QVERIFY2(failure.startsWith(message), qPrintable(failure));
    }
};

QTEST_GUILESS_MAIN(TestRunOrchestrator)
#include "tst_runorchestrator.moc"
