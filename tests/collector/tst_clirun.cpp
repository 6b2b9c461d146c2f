// `cnp run` as a user types it, on a YAML plan (two configurations of the collector_harness stand-in, see
// tst_launchlocal): --dry-run prints one JSON argv per job (local) or the manifests (kubernetes, on stdout
// or into --manifests DIR) and creates nothing; --progress json prints the documented protocol, one
// object per line, ending with the summary; the exit status (0 all done, 2 a job failed, 2 and the
// findings for a plan with errors, 130 on SIGINT with the finished run kept and no job left running);
// re-running resumes.
#include "CliRunner.h"
#include "CollectorPaths.h"
#include "TestPaths.h"
#include "store/Workspace.h"

#include <QtTest>

#include <csignal>

namespace {

// `optEnv` is added to the Base+Opt configuration's env (YAML flow mapping entries). The workload's last
// argument is the test's folder: its processes can be found by command line.
QString writePlan(const QTemporaryDir& dir, const QString& optEnv = {}, const QString& extra = {}) {
    const QString path = dir.filePath("plan.yaml");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(
        QString("name: cli test\n"
                "workload:\n  command: ['%1', '%2', '-', workload, '%5']\n"
                "repeats: {traced: 1, untraced: 1}\n"
                "tokensPerStep: 1024\n"
                "logMetric: {regex: 'throughput ([0-9.]+) tokens/s', unit: tokens/s}\n"
                "timeout: 60\n%3"
                "configurations:\n"
                "  - name: Base\n    image: localhost/cnp-test:1\n    env: {HARNESS_THROUGHPUT: \"1000\"}\n"
                "  - name: Base+Opt\n    extends: Base\n    env: {HARNESS_THROUGHPUT: \"2000\"%4}\n")
            .arg(testpaths::harnessPath(), testpaths::fakeCuptiPath(), extra, optEnv,
                 dir.path()) // the last: a marker
            .toUtf8());
    return path;
}

// Both configurations fail (Base+Opt extends Base's environment).
QString writeFailingPlan(const QTemporaryDir& dir) {
    const QString path = writePlan(dir);
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    QByteArray text = f.readAll();
    f.close();
    text.replace("env: {HARNESS_THROUGHPUT: \"1000\"}",
                 "env: {HARNESS_THROUGHPUT: \"1000\", HARNESS_EXIT: \"4\"}");
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(text);
    return path;
}

cnp::testing::CliResult runCnp(const QStringList& args) {
    qputenv("CNP_COLLECTOR_LIB", testpaths::collectorPath().toLocal8Bit());
    return cnp::testing::runCli(args, 60000);
}

QList<QJsonObject> jsonLines(const QByteArray& out) {
    QList<QJsonObject> objs;
    for (const auto& line : out.split('\n'))
        if (!line.isEmpty())
            objs << QJsonDocument::fromJson(line).object();
    return objs;
}

} // namespace

class TestCliRun : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!kCollectorBuilt)
            QSKIP("libcnp-collector.so is not built here (no CUPTI headers)");
    }

    void dryRunPrintsArgvAndChangesNothing() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        const auto r = runCnp({"run", writePlan(dir), ws, "--dry-run"});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4); // 2 configurations x (1 traced + 1 untraced)
        for (const auto& l : lines) {
            const QJsonArray argv = QJsonDocument::fromJson(l).array();
            QCOMPARE(argv.first().toString(), "env");
            QCOMPARE(argv.last().toString(), dir.path());
        }
        QVERIFY(lines[0].contains("CUDA_INJECTION64_PATH="));
        QVERIFY(!lines[1].contains("CUDA_INJECTION64_PATH=")); // the untraced repeat
        QVERIFY(!QFile::exists(ws));
        QVERIFY(!QFile::exists(ws + ".runs"));
    }

    void dryRunKubernetesManifests() {
        QTemporaryDir dir;
        const QString plan = writePlan(dir, {}, "kubernetes: {namespace: ablation}\n");
        const auto r =
            runCnp({"run", plan, dir.filePath("ws.cnpdb"), "--dry-run", "--backend", "kubernetes"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count("\nkind: \"Job\"\n"), 4);
        QCOMPARE(r.out.count("\nkind: \"Service\"\n"), 4);
        // Each job's fetch pod, and the one probe pod of the plan's one image, first: every object it would
        // create.
        QCOMPARE(r.out.count("\nkind: \"Pod\"\n"), 5);
        QVERIFY(r.out.startsWith("---\napiVersion: \"v1\"\nkind: \"Pod\"\nmetadata:\n  name: \"cnp-probe-"));
        QCOMPARE(r.out.count("cnp.probe/image: \"localhost/cnp-test:1\""), 1);
        const auto m = runCnp({"run", plan, dir.filePath("ws.cnpdb"), "--dry-run", "--backend", "kubernetes",
                               "--manifests", dir.filePath("manifests")});
        QCOMPARE(m.exitCode, 0);
        QCOMPARE(QDir(dir.filePath("manifests")).entryList({"*.yaml"}).size(), 5);
        QVERIFY(QFile::exists(dir.filePath("manifests/image-probes.yaml")));
        QVERIFY(!QFile::exists(dir.filePath("ws.cnpdb")));
        // kubernetes.probeImages: false: no probe pod.
        const QString noProbe = writePlan(dir, {}, "kubernetes: {namespace: ablation, probeImages: false}\n");
        const auto n =
            runCnp({"run", noProbe, dir.filePath("ws.cnpdb"), "--dry-run", "--backend", "kubernetes"});
        QCOMPARE(n.exitCode, 0);
        QCOMPARE(n.out.count("\nkind: \"Pod\"\n"), 4);
        QVERIFY(!n.out.contains("cnp-probe-"));
    }

    void jsonProgressProtocolAndResume() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        const auto r = runCnp({"run", writePlan(dir), ws, "--progress", "json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto objs = jsonLines(r.out);
        QStringList baseStates;
        for (const auto& o : objs.mid(0, objs.size() - 1)) {
            QCOMPARE(o["type"].toString(), "run");
            QVERIFY(o.contains("config") && o.contains("repeat") && o.contains("rank") &&
                    o.contains("message"));
            if (o["config"] == "Base" && o["repeat"].toInt() == 1)
                baseStates << o["state"].toString();
        }
        QCOMPARE(baseStates,
                 (QStringList{"pending", "starting", "running", "collecting", "ingesting", "done"}));
        QCOMPARE(objs.last(), (QJsonObject{{"type", "summary"},
                                           {"done", 4},
                                           {"failed", 0},
                                           {"skipped", 0},
                                           {"cancelled", 0},
                                           {"detached", 0}}));
        const auto again = runCnp({"run", writePlan(dir), ws, "--progress", "json"});
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(jsonLines(again.out).last()["skipped"].toInt(), 4);
    }

    // The resume key tells traced from untraced: after a run with 1 traced + 1 untraced repeat (Base-r1
    // traced, Base-r2 untraced), `--repeats 2` must run repeat 2 traced (and repeat 3 untraced), not take
    // the untraced Base-r2 for it.
    void resumeTellsTracedFromUntraced() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        const auto first = runCnp({"run", writePlan(dir), ws, "--configs", "Base", "--progress", "json"});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const auto again =
            runCnp({"run", writePlan(dir), ws, "--configs", "Base", "--repeats", "2", "--progress", "json"});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        const QJsonObject summary = jsonLines(again.out).last();
        QCOMPARE(summary["done"].toInt(), 2);    // repeat 2 traced, repeat 3 untraced
        QCOMPARE(summary["skipped"].toInt(), 1); // repeat 1 traced
        cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadOnly);
        QStringList kinds; // plan.repeat:launch.traced of every run, in run order
        for (const auto& r : w.runs()) {
            const auto a = w.runAttributes(r.id);
            kinds << QString::fromStdString(a.at("plan.repeat") + ":" + a.at("launch.traced"));
        }
        kinds.sort();
        QCOMPARE(kinds, (QStringList{"1:1", "2:0", "2:1", "3:0"}));
    }

    // What a run records of where it came from, as `cnp runs --json` shows it: the plan file by its
    // absolute path though given relative, the backend, and no image for the local backend (it runs none).
    void provenanceInRunsJson() {
        QTemporaryDir dir;
        writePlan(dir);
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_COLLECTOR_LIB", testpaths::collectorPath());
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(dir.path());
        p.start(testpaths::cliPath(), {"run", "plan.yaml", "ws.cnpdb", "--configs", "Base"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const auto r = runCnp({"runs", dir.filePath("ws.cnpdb"), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out).object()["runs"].toArray();
        QCOMPARE(runs.size(), 2); // traced r1, untraced r2
        for (const auto& v : runs) {
            const QJsonObject run = v.toObject();
            QCOMPARE(run["container_image"].toString(), QString());
            const QJsonObject a = run["attributes"].toObject();
            QCOMPARE(a["plan.path"].toString(), dir.filePath("plan.yaml"));
            QCOMPARE(a["plan.config"].toString(), "Base");
            QCOMPARE(a["launch.backend"].toString(), "local");
            QCOMPARE(a["launch.traced"].toString(), run["name"] == "Base-r1" ? "1" : "0");
            QCOMPARE(a["log.throughput"].toString(), "1100");
        }
    }

    // After a configuration's first failure its other repeats are not started (they would fail the same
    // way; issue 32.5: all 16 ran); --keep-going runs them.
    void failedJobExitsTwo_data() {
        QTest::addColumn<bool>("keepGoing");
        QTest::addColumn<QString>("summary");
        QTest::newRow("stops the configuration") << false << "2 done, 1 failed, 1 skipped";
        QTest::newRow("--keep-going") << true << "2 done, 2 failed, 0 skipped";
    }
    void failedJobExitsTwo() {
        QFETCH(bool, keepGoing);
        QFETCH(QString, summary);
        QTemporaryDir dir;
        QStringList args{"run", writePlan(dir, ", HARNESS_EXIT: \"4\""), dir.filePath("ws.cnpdb"),
                         "--repeats", "1"};
        if (keepGoing)
            args << "--keep-going";
        const auto r = runCnp(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("Base+Opt r1: failed (exit code 4: "), r.err.constData());
        // The log's last line leads the message (issue 32.5), the folder follows.
        QVERIFY2(QRegularExpression("Base\\+Opt r1: failed \\(exit code 4: [^\\n]+; logs in ")
                     .match(QString::fromUtf8(r.err))
                     .hasMatch(),
                 r.err.constData());
        QVERIFY2(r.err.contains(summary.toUtf8()), r.err.constData()); // Base's two are kept
        if (!keepGoing)
            QVERIFY2(
                r.err.contains("Base+Opt r2: skipped (not started: an earlier repeat of Base+Opt failed"),
                r.err.constData());
    }

    // --detach leaves jobs running without cnp: a local process or container cannot, so it is a usage error
    // that starts nothing and creates nothing.
    void detachNeedsAClusterBackend() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        const auto r = runCnp({"run", writePlan(dir), ws, "--detach"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("--detach: a local job ends with cnp; only kubernetes jobs run on without it"),
            r.err.constData());
        QVERIFY(!QFile::exists(ws));
        QVERIFY(!QFileInfo(ws + ".runs").exists());
    }

    // A study that produces nothing changes nothing (issue 32.1: every job failed, yet the plan order grew
    // and the report's default selection named configurations without runs): a configuration enters the
    // plan order only once it has a run, and a workspace the run created is removed when no job succeeded.
    void failedConfigurationsStayOutOfThePlanOrder() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        const auto r = runCnp({"run", writePlan(dir, ", HARNESS_EXIT: \"4\""), ws, "--repeats", "1"});
        QCOMPARE(r.exitCode, 2);
        cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadOnly);
        QCOMPARE(w.planOrder(), std::vector<std::string>{"Base"});
    }
    void aNewWorkspaceWhereEveryJobFailedIsRemoved() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        const auto r = runCnp({"run", writeFailingPlan(dir), ws, "--repeats", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("0 done, 2 failed"), r.err.constData());
        QVERIFY(!QFile::exists(ws));
        QVERIFY(QFileInfo(ws + ".runs").isDir()); // the logs stay
    }
    void anExistingWorkspaceKeepsItsPlanOrderWhenEveryJobFails() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        {
            cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::CreateIfMissing);
            w.setPlanOrder({"Earlier"});
        }
        const auto r = runCnp({"run", writeFailingPlan(dir), ws, "--repeats", "1"});
        QCOMPARE(r.exitCode, 2);
        cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadOnly);
        QCOMPARE(w.planOrder(), std::vector<std::string>{"Earlier"});
        QVERIFY(w.runs().empty());
    }

    void planErrorsAreFindings() {
        QTemporaryDir dir;
        QFile f(dir.filePath("bad.yaml"));
        f.open(QIODevice::WriteOnly);
        f.write("name: bad\nworkload: {command: [x]}\nrepeats: {traced: two}\nconfigurations: [{name: A}]\n");
        f.close();
        const auto r = runCnp({"run", dir.filePath("bad.yaml"), dir.filePath("ws.cnpdb")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(dir.filePath("bad.yaml").toUtf8() + ":3:"), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("ws.cnpdb")));
    }

    void severalNodesRefusedBeforeAnyJob_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("local") << "local";
        QTest::newRow("podman") << "podman";
        QTest::newRow("docker") << "docker";
    }
    void severalNodesRefusedBeforeAnyJob() {
        QFETCH(QString, backend);
        QTemporaryDir dir;
        const QString plan = writePlan(dir, {}, "resources: {nodes: 2, gpusPerNode: 1}\n");
        for (const QStringList& extra : {QStringList{}, QStringList{"--dry-run"}}) {
            const auto r =
                runCnp(QStringList{"run", plan, dir.filePath("ws.cnpdb"), "--backend", backend} + extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("the plan asks for 2 nodes, but the " + backend.toUtf8() +
                                    " backend runs one node"),
                     r.err.constData());
            QVERIFY(r.out.isEmpty()); // no argv printed, no job started
            QVERIFY(!QFile::exists(dir.filePath("ws.cnpdb.runs")));
        }
    }

    // Two `cnp run` at once on one workspace (or one output folder) corrupted each other: the second moved
    // the first's job folder aside and ingested its partial trace. The second is refused now, naming the
    // first (pid, host, start, command) and creating nothing; once the first has ended the locks are gone.
    void secondRunOnOneWorkspaceIsRefused() {
        QTemporaryDir dir;
        const QString plan = writePlan(dir, {}, {});
        const QString ws = dir.filePath("ws.cnpdb");
        QProcess first;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_COLLECTOR_LIB", testpaths::collectorPath());
        env.insert("HARNESS_STEPS", "1000"); // about 100 s: it ends only by being stopped
        env.insert("HARNESS_STEP_MS", "100");
        first.setProcessEnvironment(env);
        first.start(testpaths::cliPath(), {"run", plan, ws, "--progress", "json", "--repeats", "1"});
        QVERIFY(first.waitForStarted());
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (!out.contains("\"state\":\"running\"") && t.elapsed() < 30000 &&
               first.state() == QProcess::Running) {
            first.waitForReadyRead(200);
            out += first.readAllStandardOutput();
        }
        QVERIFY2(out.contains("\"state\":\"running\""), out + first.readAllStandardError());
        const QByteArray holder =
            QString(" is being used by cnp run (pid %1 on host ").arg(first.processId()).toUtf8();

        const auto second = runCnp({"run", plan, ws, "--repeats", "1"});
        QCOMPARE(second.exitCode, 2);
        QVERIFY2(second.err.contains(("workspace " + ws).toUtf8() + holder), second.err.constData());
        QVERIFY2(second.err.contains(": cnp run " + plan.toUtf8() + " " + ws.toUtf8() + " --progress json"),
                 second.err.constData());
        // Another workspace, the same output folder: refused as well, and the other workspace not created.
        const QString other = dir.filePath("other.cnpdb");
        const auto third = runCnp({"run", plan, other, "--out", ws + ".runs", "--repeats", "1"});
        QCOMPARE(third.exitCode, 2);
        QVERIFY2(third.err.contains(("output folder " + ws + ".runs").toUtf8() + holder),
                 third.err.constData());
        QVERIFY(!QFile::exists(other));
        QVERIFY(!QFile::exists(other + ".lock"));
        // The dry run changes nothing, so it needs no lock.
        QCOMPARE(runCnp({"run", plan, ws, "--dry-run"}).exitCode, 0);

        ::kill(static_cast<pid_t>(first.processId()), SIGINT);
        QVERIFY(first.waitForFinished(60000));
        QCOMPARE(first.exitCode(), 130);
        QVERIFY(!QFile::exists(ws + ".lock"));
        QVERIFY(!QFile::exists(ws + ".runs/.cnp-run.lock"));
        // The first run was stopped in its first job, so nothing landed: the workspace it created is removed
        // (issue 32.1), and the refused runs added nothing to it meanwhile.
        QVERIFY(!QFile::exists(ws));
    }

    void sigintStopsTheRunningJobAndKeepsFinishedRuns() {
        QTemporaryDir dir;
        const QString plan = writePlan(dir, ", HARNESS_STEPS: \"1000\", HARNESS_STEP_MS: \"100\"");
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_COLLECTOR_LIB", testpaths::collectorPath());
        p.setProcessEnvironment(env);
        p.start(testpaths::cliPath(),
                {"run", plan, dir.filePath("ws.cnpdb"), "--progress", "json", "--repeats", "1"});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (!out.contains("\"config\":\"Base+Opt\",\"repeat\":1,\"rank\":null,\"state\":\"running\"") &&
               t.elapsed() < 30000 && p.state() == QProcess::Running) {
            p.waitForReadyRead(200);
            out += p.readAllStandardOutput();
        }
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        out += p.readAllStandardOutput();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 130,
                 out + p.readAllStandardError());
        const auto objs = jsonLines(out);
        QCOMPARE(objs.last()["type"].toString(), "summary");
        QCOMPARE(objs.last()["done"].toInt(), 2);      // Base r1 and its untraced r2
        QCOMPARE(objs.last()["cancelled"].toInt(), 2); // the running Base+Opt r1 and the unstarted r2
        QProcess pgrep;
        pgrep.start("pgrep", {"-f", dir.path()});
        pgrep.waitForFinished();
        QCOMPARE(pgrep.readAllStandardOutput(), QByteArray()); // no workload of this test left running
        const auto runs = cnp::testing::runCli({"runs", dir.filePath("ws.cnpdb")});
        QVERIFY(runs.out.contains("Base-r1") && !runs.out.contains("Base+Opt-r1"));
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_clirun.moc"
