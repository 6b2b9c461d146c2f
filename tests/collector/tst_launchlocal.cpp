// `cnp run`'s local backend end to end, with a CPU-only stand-in for a training job: collector_harness
// (workload scenario) loads the real libcnp-collector.so named by CUDA_INJECTION64_PATH against the fake
// CUPTI, emits NVTX steps of fake kernels and prints "throughput X tokens/s" lines, so each job leaves a real
// .cnpt and a real log. Checked: every configuration × repeat lands in the workspace labelled and with its
// attributes (the log's median throughput: HARNESS_THROUGHPUT + 100 × step over 3 steps, so base + 100),
// untraced repeats as runs without events, `cnp ablation` over the result; resume skips what is there; a
// failing configuration keeps the others; a cancel keeps what finished and stops the running job's process
// group; the per-run timeout; plan values reach the workload verbatim (no shell).
#include "CliRunner.h"
#include "CollectorPaths.h"
#include "TestPaths.h"
#include "TestPlans.h"
#include "launch/JobPlanner.h"
#include "launch/LocalBackend.h"
#include "launch/RunOrchestrator.h"
#include "store/Workspace.h"

#include <QtTest>

#include <atomic>
#include <csignal>

using namespace cnp;
using namespace cnp::launch;

namespace {

plan::Plan harnessPlan(int traced, int untraced) {
    return testing::twoConfigPlan(
        {testpaths::harnessPath().toStdString(), testpaths::fakeCuptiPath().toStdString(), "-", "workload"},
        traced, untraced);
}

struct Outcome {
    RunSummary summary;
    std::vector<ProgressEvent> events;
    QString lastMessage(const std::string& config, int repeat) const {
        QString m;
        for (const auto& e : events)
            if (e.config == config && e.repeat == repeat)
                m = QString::fromStdString(e.message);
        return m;
    }
};

Outcome runPlan(const plan::Plan& plan, const QString& ws, const QString& out,
                const std::atomic<bool>& cancel, std::function<void(const ProgressEvent&)> also = {}) {
    Outcome o;
    Workspace w(ws.toStdString(), Workspace::Mode::CreateIfMissing);
    LocalBackend local(testpaths::collectorPath().toStdString());
    RunOrchestrator orch(plan, w, local, [&](const ProgressEvent& e) {
        o.events.push_back(e);
        if (also)
            also(e);
    });
    orch.setPollInterval(20);
    o.summary = orch.run(planJobs(plan, {}, out.toStdString()), cancel);
    return o;
}

} // namespace

class TestLaunchLocal : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!kCollectorBuilt)
            QSKIP("libcnp-collector.so is not built here (no CUPTI headers)");
    }

    void everyConfigurationAndRepeatLands() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("study.cnpdb");
        std::atomic<bool> cancel{false};
        qputenv("CNP_IMAGE", "caller/image:1"); // the caller's label: a local run never ran it either
        const auto o = runPlan(harnessPlan(1, 1), ws, dir.filePath("runs"), cancel);
        qunsetenv("CNP_IMAGE");
        QCOMPARE(o.summary.done, 4);
        QCOMPARE(o.summary.failed, 0);

        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        struct Expect {
            const char* run;
            const char* config;
            int repeat;
            bool traced;
            const char* throughput;
        };
        const Expect expected[] = {{"Base-r1", "Base", 1, true, "1100"},
                                   {"Base-r2", "Base", 2, false, "1100"},
                                   {"Base+Opt-r1", "Base+Opt", 1, true, "2100"},
                                   {"Base+Opt-r2", "Base+Opt", 2, false, "2100"}};
        for (const auto& e : expected) {
            const auto run = w.findRun(e.run);
            QVERIFY2(run, e.run);
            QCOMPARE(QString::fromStdString(run->info.config), QString(e.config));
            QCOMPARE(run->info.repeat, e.repeat);
            QCOMPARE(run->kernelCount, e.traced ? 30 : 0); // 3 steps x 10 launches
            // Provenance: the plan's image (localhost/cnp-test:1) never ran here; no image is recorded.
            QCOMPARE(QString::fromStdString(run->info.containerImage), QString());
            const auto a = w.runAttributes(run->id);
            QCOMPARE(QString::fromStdString(a.at("plan.hash")), "0123456789abcdef");
            QCOMPARE(QString::fromStdString(a.at("plan.config")), QString(e.config));
            QCOMPARE(QString::fromStdString(a.at("plan.repeat")), QString::number(e.repeat));
            QCOMPARE(QString::fromStdString(a.at("launch.backend")), "local");
            QCOMPARE(QString::fromStdString(a.at("launch.traced")), e.traced ? "1" : "0");
            QCOMPARE(QString::fromStdString(a.at("log.throughput")), QString(e.throughput));
            QCOMPARE(QString::fromStdString(a.at("log.throughput_unit")), "tokens/s");
            QCOMPARE(QString::fromStdString(a.at("log.source")), "log");
        }
        // The traced run's NVTX steps went through NVTX_INJECTION64_PATH (set at launch, before NVTX's
        // first call in the harness): 3 steps detected.
        const auto base = w.findRun("Base-r1");
        QCOMPARE(w.loadRun(base->id).steps.size(), std::size_t(3));

        const auto runs = testing::runCli({"runs", ws});
        QVERIFY2(runs.exitCode == 0 && runs.out.contains("Base+Opt-r2"), runs.err.constData());
        const auto r = testing::runCli({"ablation", ws});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("Base+Opt") && r.out.contains("Base"), r.out.constData());
    }

    void rerunResumesWithoutRepeatingWork() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("study.cnpdb");
        std::atomic<bool> cancel{false};
        QCOMPARE(runPlan(harnessPlan(1, 0), ws, dir.filePath("runs"), cancel).summary.done, 2);
        const auto again = runPlan(harnessPlan(2, 0), ws, dir.filePath("runs"), cancel);
        QCOMPARE(again.summary.skipped, 2); // r1 of each configuration
        QCOMPARE(again.summary.done, 2);    // r2 of each is new
        QCOMPARE(again.lastMessage("Base", 1), "already in the workspace");
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        QCOMPARE(w.runs().size(), std::size_t(4));
    }

    void failingConfigurationKeepsTheOthers() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("study.cnpdb");
        auto plan = harnessPlan(1, 0);
        plan.configurations[0].resolved.env.push_back({"HARNESS_EXIT", "3", {}});
        std::atomic<bool> cancel{false};
        const auto o = runPlan(plan, ws, dir.filePath("runs"), cancel);
        QCOMPARE(o.summary.failed, 1);
        QCOMPARE(o.summary.done, 1);
        QVERIFY(o.lastMessage("Base", 1).startsWith("exit code 3"));
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        QVERIFY(!w.findRun("Base-r1"));
        QVERIFY(w.findRun("Base+Opt-r1"));
        // The failed job's log is kept for the user.
        const QString log =
            QString::fromStdString(planJobs(plan, {}, dir.filePath("runs").toStdString())[0].outputDir) +
            "/node0.log";
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("throughput 1200 tokens/s"));
    }

    void cancelKeepsFinishedRunsAndStopsTheJob() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("study.cnpdb");
        auto plan = harnessPlan(1, 0);
        // A job of about 28 hours: it ends only by being stopped.
        plan.configurations[1].resolved.env.push_back({"HARNESS_STEPS", "1000000", {}});
        plan.configurations[1].resolved.env.push_back({"HARNESS_STEP_MS", "100", {}});
        std::atomic<bool> cancel{false};
        QElapsedTimer t;
        t.start();
        const auto o = runPlan(plan, ws, dir.filePath("runs"), cancel, [&](const ProgressEvent& e) {
            if (e.config == "Base+Opt" && e.state == JobState::Running)
                cancel.store(true); // as SIGINT would, while the long job runs
        });
        // A hang guard (about 1 s normally): the running job was stopped, not waited for.
        QVERIFY2(t.elapsed() < 120000, "the running job was not stopped");
        QCOMPARE(o.summary.done, 1);
        QCOMPARE(o.summary.cancelled, 1);
        QCOMPARE(o.lastMessage("Base+Opt", 1), "stopped on request");
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        QVERIFY(w.findRun("Base-r1"));
        QVERIFY(!w.findRun("Base+Opt-r1"));
    }

    void perRunTimeout() {
        QTemporaryDir dir;
        auto plan = harnessPlan(1, 0);
        plan.timeoutSeconds = 1;
        plan.configurations.resize(1);
        plan.configurations[0].resolved.env.push_back({"HARNESS_STEPS", "1000000", {}}); // about 28 hours
        plan.configurations[0].resolved.env.push_back({"HARNESS_STEP_MS", "100", {}});
        std::atomic<bool> cancel{false};
        QElapsedTimer t;
        t.start();
        const auto o = runPlan(plan, dir.filePath("s.cnpdb"), dir.filePath("runs"), cancel);
        QVERIFY2(t.elapsed() < 120000, "the job outlived its timeout"); // a hang guard (about 1.5 s normally)
        QCOMPARE(o.summary.failed, 1);
        QCOMPARE(o.lastMessage("Base", 1), "timed out after 1 s");
    }

    // An untraced repeat is the overhead baseline: the caller's own injection variables (cnp run started
    // under `cnp collect`, or a shell that exports them) must not trace it.
    void untracedRepeatDropsTheCallersInjection() {
        QTemporaryDir dir;
        auto plan = testing::twoConfigPlan({"/bin/sh", "-c", "env"}, 0, 1);
        plan.configurations.resize(1);
        qputenv("CUDA_INJECTION64_PATH", "/caller/inject.so");
        qputenv("NVTX_INJECTION64_PATH", "/caller/inject.so");
        qputenv("CNP_CALLER_MARK", "kept");
        std::atomic<bool> cancel{false};
        const auto o = runPlan(plan, dir.filePath("s.cnpdb"), dir.filePath("runs"), cancel);
        qunsetenv("CUDA_INJECTION64_PATH");
        qunsetenv("NVTX_INJECTION64_PATH");
        qunsetenv("CNP_CALLER_MARK");
        QCOMPARE(o.summary.done, 1);
        QFile f(QString::fromStdString(planJobs(plan, {}, dir.filePath("runs").toStdString())[0].outputDir) +
                "/node0.log");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray log = f.readAll();
        QVERIFY2(log.contains("CNP_CALLER_MARK=kept\n"), log.constData()); // the rest is inherited
        QVERIFY2(!log.contains("CUDA_INJECTION64_PATH"), log.constData());
        QVERIFY2(!log.contains("NVTX_INJECTION64_PATH"), log.constData());
    }

    void planValuesArriveVerbatim() {
        QTemporaryDir dir;
        auto plan = harnessPlan(0, 1);
        plan.configurations.resize(1);
        const std::string hostile = "$(touch " + dir.filePath("pwned").toStdString() + ") `id` ; | & \"'";
        plan.workload.command.push_back(hostile);
        plan.configurations[0].resolved.env.push_back({"HARNESS_ECHO", hostile, {}});
        std::atomic<bool> cancel{false};
        const auto o = runPlan(plan, dir.filePath("s.cnpdb"), dir.filePath("runs"), cancel);
        QCOMPARE(o.summary.done, 1);
        QFile f(QString::fromStdString(planJobs(plan, {}, dir.filePath("runs").toStdString())[0].outputDir) +
                "/node0.log");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray log = f.readAll();
        QVERIFY2(log.contains(QByteArray("arg: ") + hostile.c_str() + "\n"), log.constData());
        QVERIFY2(log.contains(QByteArray("echo: ") + hostile.c_str() + "\n"), log.constData());
        QVERIFY(!QFile::exists(dir.filePath("pwned")));
    }
};

QTEST_GUILESS_MAIN(TestLaunchLocal)
#include "tst_launchlocal.moc"
