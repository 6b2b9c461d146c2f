// `cnp run`'s podman backend for real: the test builds a tiny image (busybox plus collector_harness, the fake
// CUPTI and the libraries `ldd` lists, `podman import`ed; no registry), then runs a plan in it through
// ContainerBackend with podman configured by a CONTAINERS_CONF file (runc and explicit ulimits: the
// adjustments this kind of VM needs, shared/design/containers.md) and --network none. Checked: traced runs
// land with real traces and log figures (trace retrieval through the mounted output folder, log capture);
// the collector's variables are injected and its mount is read-only (a shell job tries to write it); a
// cancelled job's container is gone afterwards (`podman ps -a`); re-running resumes; images the collector
// cannot trace in (old glibc, no CUPTI) stop `cnp run` before any job.
#include "CliRunner.h"
#include "CollectorPaths.h"
#include "ContainerTestImage.h"
#include "TestPaths.h"
#include "TestPlans.h"
#include "core/InputError.h"
#include "launch/ContainerBackend.h"
#include "launch/JobPlanner.h"
#include "launch/RunOrchestrator.h"
#include "store/Workspace.h"

#include <QtTest>

#include <atomic>
#include <functional>

using namespace cnp;
using namespace cnp::launch;

namespace {

QString podman(const QStringList& args, const QString& conf, int* code = nullptr) {
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("CONTAINERS_CONF", conf);
    p.setProcessEnvironment(env);
    p.start("podman", args);
    if (!p.waitForFinished(60000))
        p.kill();
    if (code)
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

} // namespace

class TestLaunchPodman : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString conf_, image_;
    std::string initPath_; // podman's --init-path on this machine (containerInit)

    plan::Plan containerPlan(std::vector<std::string> command) const {
        auto plan = testing::twoConfigPlan(std::move(command));
        plan.hash = "podman-" + image_.toStdString();
        for (auto& c : plan.configurations)
            c.resolved.image = image_.toStdString();
        plan.container.extraArgs = {"--network", "none"};
        return plan;
    }

    ContainerSettings settings(const plan::Plan& plan) const {
        ContainerSettings s;
        s.collectorLibrary = testpaths::collectorPath().toStdString();
        s.extraArgs = plan.container.extraArgs;
        s.engineEnv = {{"CONTAINERS_CONF", conf_.toStdString()}};
        s.planName = plan.name;
        s.initPath = initPath_;
        s.pull = plan.container.pull;
        return s;
    }

    // As cnp run does: the backend's checks once (prepare), then the jobs.
    RunSummary run(const plan::Plan& plan, const std::atomic<bool>& cancel,
                   const ProgressListener& also = {}) {
        Workspace ws(dir_.filePath("study.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        ContainerBackend backend(settings(plan));
        const auto jobs = planJobs(plan, {}, dir_.filePath("runs").toStdString());
        backend.prepare(jobs, {});
        RunOrchestrator orch(plan, ws, backend, also);
        orch.setPollInterval(50);
        return orch.run(jobs, cancel);
    }

    // Every job's last message, in order.
    QStringList messages(const plan::Plan& plan) {
        QStringList m;
        std::atomic<bool> cancel{false};
        run(plan, cancel, [&](const ProgressEvent& e) {
            if (isFinal(e.state) && !e.rank)
                m << QString::fromStdString(e.message);
        });
        return m;
    }

    // The test image's rootfs copied, changed by `edit` and imported as localhost/cnp-launch-test-NAME:PID;
    // "" when a step fails.
    QString variantImage(const QString& name, const std::function<bool(const QString&)>& edit) {
        const QString root = dir_.filePath("rootfs-" + name);
        QDir(root).removeRecursively(); // a variant made before (another row)
        QProcess cp;
        cp.start("cp", {"-a", dir_.filePath("rootfs"), root});
        if (!cp.waitForFinished() || cp.exitCode() != 0 || !edit(root))
            return {};
        QProcess tar;
        tar.start("tar", {"-cf", root + ".tar", "-C", root, "."});
        if (!tar.waitForFinished() || tar.exitCode() != 0)
            return {};
        const QString image =
            QString("localhost/cnp-launch-test-%1:%2").arg(name).arg(QCoreApplication::applicationPid());
        int code = -1;
        podman({"import", root + ".tar", image}, conf_, &code);
        return code == 0 ? image : QString();
    }

    QByteArray logOf(const plan::Plan& plan, int job) const {
        QFile f(
            QString::fromStdString(planJobs(plan, {}, dir_.filePath("runs").toStdString())[job].outputDir) +
            "/node0.log");
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase() {
        if (!kCollectorBuilt)
            QSKIP("libcnp-collector.so is not built here (no CUPTI headers)");
        conf_ = dir_.filePath("containers.conf");
        QVERIFY(testing::writePodmanConf(conf_));
        int code = -1;
        const QString info = podman({"info", "--format", "{{.Host.OCIRuntime.Name}}"}, conf_, &code);
        if (code != 0 || !QFile::exists("/bin/busybox"))
            QSKIP(qPrintable(
                "podman cannot run here (install podman runc busybox-static: scripts/install-deps): " +
                info.trimmed().left(200)));
        // The image: busybox, the harness and its libraries, the fake CUPTI (the collector is mounted).
        const auto init = containerInit("podman");
        if (!init)
            QSKIP("no init for podman --init here (install catatonit or tini)");
        initPath_ = *init;
        QString why;
        const QString tar =
            testing::buildTestImageTar(dir_.path(), testpaths::harnessPath(), testpaths::collectorPath(),
                                       testpaths::fakeCuptiPath(), why);
        QVERIFY2(!tar.isEmpty(), qPrintable(why));
        image_ = QString("localhost/cnp-launch-test:%1").arg(QCoreApplication::applicationPid());
        podman({"import", tar, image_}, conf_, &code);
        QCOMPARE(code, 0);
    }

    void cleanupTestCase() {
        if (!image_.isEmpty())
            podman({"rmi", "--force", image_}, conf_);
    }

    void tracedRunsLandAndResume() {
        const auto plan =
            containerPlan({"/opt/harness/collector_harness", "/opt/fake/libcupti.so.13", "-", "workload"});
        std::atomic<bool> cancel{false};
        const RunSummary s = run(plan, cancel);
        QCOMPARE(s.done, 2);
        {
            Workspace ws(dir_.filePath("study.cnpdb").toStdString(), Workspace::Mode::ReadOnly);
            for (const char* name : {"Base-r1", "Base+Opt-r1"}) {
                const auto r = ws.findRun(name);
                QVERIFY2(r, name);
                QCOMPARE(r->kernelCount, 30); // the .cnpt written inside the container, read back
                QCOMPARE(QString::fromStdString(ws.runAttributes(r->id).at("launch.backend")), "podman");
            }
            QCOMPARE(
                QString::fromStdString(ws.runAttributes(ws.findRun("Base+Opt-r1")->id).at("log.throughput")),
                "2100");
            // Provenance: the image as the engine knows it, not only its tag.
            const auto a = ws.runAttributes(ws.findRun("Base-r1")->id);
            const QString id = podman({"image", "inspect", "--format", "{{.Id}}", image_}, conf_).trimmed();
            const QString digest =
                podman({"image", "inspect", "--format", "{{.Digest}}", image_}, conf_).trimmed();
            QCOMPARE(QString::fromStdString(a.at("launch.image_id")), "sha256:" + id);
            QCOMPARE(QString::fromStdString(a.at("launch.image_digest")),
                     image_.left(image_.lastIndexOf(':')) + "@" + digest);
        }
        QVERIFY(logOf(plan, 1).contains("arg: --opt")); // the configuration's args, through podman's argv
        QCOMPARE(run(plan, cancel).skipped, 2);         // resume
    }

    void environmentAndReadOnlyCollector() {
        auto plan = containerPlan({"/bin/sh", "-c",
                                   "if touch /opt/cnp/lib/libcnp-collector.so; then echo WRITABLE; "
                                   "else echo READONLY; fi; env"});
        plan.hash = "env-" + plan.hash;
        plan.configurations.resize(1);
        plan.configurations[0].resolved.env.push_back({"PLAN_VALUE", "$(rm -rf ~) `x`", {}});
        std::atomic<bool> cancel{false};
        const RunSummary s = run(plan, cancel);
        QCOMPARE(s.failed, 1); // a shell uses no CUDA: no trace, so the job fails, and says why
        const QByteArray log = logOf(plan, 0);
        QVERIFY2(log.contains("READONLY\n"), log.constData());
        QVERIFY(log.contains(QByteArray("CUDA_INJECTION64_PATH=") + kContainerCollectorPath + "\n"));
        QVERIFY(log.contains(QByteArray("NVTX_INJECTION64_PATH=") + kContainerCollectorPath + "\n"));
        QVERIFY(log.contains(QByteArray("CNP_OUTPUT_DIR=") + kContainerOutputDir + "\n"));
        QVERIFY(log.contains("CNP_CONFIG=Base\n"));
        QVERIFY(log.contains("PLAN_VALUE=$(rm -rf ~) `x`\n"));
    }

    // As PID 1 a shell that installs no SIGTERM handler ignores SIGTERM: without --init, `podman stop
    // --time 5` waited the 5 s and then killed it. With an init as PID 1 the workload is not PID 1 and
    // gets the signal. (Measured: cancel 5.9 s without --init, under 4.5 s with it; not asserted, wall
    // time belongs in bench/.)
    void cancelStopsAWorkloadThatIgnoresSigterm() {
        auto plan = containerPlan({"/bin/sh", "-c", "echo workload-pid=$$; while true; do sleep 1; done"});
        plan.hash = "init-" + plan.hash;
        plan.repeats.traced = 0;
        plan.repeats.untraced = 1;
        plan.configurations.resize(1);
        std::atomic<bool> cancel{false};
        const RunSummary s = run(plan, cancel, [&](const ProgressEvent& e) {
            if (e.state == JobState::Running && !e.rank) {
                QThread::msleep(1500); // the container is up and its shell in its loop
                cancel.store(true);
            }
        });
        QCOMPARE(s.cancelled, 1);
        const QByteArray log = logOf(plan, 0);
        QVERIFY2(log.contains("workload-pid="), log.constData());
        QVERIFY2(!log.contains("workload-pid=1\n"), log.constData()); // an init is PID 1, not the workload
    }

    // A missing image is found once, before any job, with the engine's reason (podman cannot reach the
    // registry "localhost"), naming the configurations that use it; with `container.pull: never` it is not
    // even tried. Before, each job failed in turn with only "exit code 125".
    void missingImageStopsTheStudyBeforeAnyJob_data() {
        QTest::addColumn<QString>("pull");
        QTest::addColumn<QString>("why");
        QTest::newRow("missing")
            << "missing"
            << "cannot be pulled: image localhost/cnp-no-such-image:1 is not on this host "
               "and its registry cannot be reached: initializing source "
               "docker://localhost/cnp-no-such-image:1: pinging container registry localhost";
        QTest::newRow("never") << "never"
                               << "not on this host, and container.pull is never";
    }
    void missingImageStopsTheStudyBeforeAnyJob() {
        QFETCH(QString, pull);
        QFETCH(QString, why);
        auto plan = containerPlan({"/bin/sh", "-c", "true"});
        plan.hash = "missing-" + pull.toStdString() + plan.hash;
        plan.container.pull = pull.toStdString();
        plan.configurations[1].resolved.image = "localhost/cnp-no-such-image:1";
        ContainerBackend backend(settings(plan));
        QStringList notes;
        try {
            backend.prepare(planJobs(plan, {}, dir_.filePath("runs").toStdString()),
                            [&](const std::string& n) { notes << QString::fromStdString(n); });
            QFAIL("prepare accepted a missing image");
        } catch (const InputError& e) {
            const QString text = QString::fromStdString(e.what());
            QVERIFY2(
                text.startsWith("/plans/test-plan.yaml: 1 image cannot be run with podman, so no job was "
                                "started: image localhost/cnp-no-such-image:1 (Base+Opt): " +
                                why),
                qPrintable(text));
        }
        QCOMPARE(notes, pull == "never"
                            ? QStringList{}
                            : QStringList{"pulling image localhost/cnp-no-such-image:1 (container.pull: "
                                          "missing)"});
    }

    // The same through `cnp run` as typed: exit 2 with the reason, and nothing created (no workspace, no
    // output folder, no lock left).
    void cnpRunRefusesAMissingImage() {
        QFile f(dir_.filePath("missing.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name: missing image\nworkload: {command: [/bin/sh, -c, 'true']}\ncontainer: {pull: never}\n"
                "configurations:\n  - {name: Base, image: 'localhost/cnp-no-such-image:2'}\n");
        f.close();
        const QString ws = dir_.filePath("missing.cnpdb");
        qputenv("CNP_COLLECTOR_LIB", testpaths::collectorPath().toLocal8Bit());
        const auto r =
            testing::runCli({"run", f.fileName(), ws, "--backend", "podman", "--containers-conf", conf_});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(f.fileName().toUtf8() +
                                ": 1 image cannot be run with podman, so no job was started: "
                                "image localhost/cnp-no-such-image:2 (Base): not on this "
                                "host, and container.pull is never"),
                 r.err.constData());
        for (const QString& left : {ws, ws + ".runs", ws + ".lock"})
            QVERIFY2(!QFile::exists(left), qPrintable(left));
    }

    // An image the collector cannot trace in is said before anything runs (launch/ImageTraceCheck): `cnp run`
    // exits 2 naming each configuration, image and cause, and creates nothing. Two variants of the test
    // image: one whose getconf reports glibc 2.27, one without the fake CUPTI (and with busybox's find, so
    // the probe's find branch runs; the test image itself has no find and is probed by its globs).
    void imagesThatCannotBeTraced() {
        const QString root = dir_.filePath("rootfs");
        QVERIFY(QFileInfo(root + "/opt/fake/libcupti.so.13").exists());
        const QString oldGlibc = variantImage("oldglibc", [&](const QString& r) {
            QDir().mkpath(r + "/usr/bin");
            QFile g(r + "/usr/bin/getconf");
            return g.open(QIODevice::WriteOnly) && g.write("#!/bin/sh\necho glibc 2.27\n") > 0 &&
                   g.setPermissions(g.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeOther);
        });
        const QString noCupti = variantImage("nocupti", [&](const QString& r) {
            return QFile::remove(r + "/opt/fake/libcupti.so.13") && QFile::link("busybox", r + "/bin/find");
        });
        QVERIFY(!oldGlibc.isEmpty() && !noCupti.isEmpty());
        QFile f(dir_.filePath("untraceable.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(("name: untraceable\nworkload: {command: [/bin/sh, -c, 'true']}\ncontainer: {pull: never}\n"
                 "configurations:\n  - {name: Base, image: '" +
                 oldGlibc + "'}\n  - {name: Opt, image: '" + noCupti + "'}\n  - {name: Fine, image: '" +
                 image_ + "'}\n")
                    .toUtf8());
        f.close();
        const QString ws = dir_.filePath("untraceable.cnpdb");
        qputenv("CNP_COLLECTOR_LIB", testpaths::collectorPath().toLocal8Bit());
        const auto r =
            testing::runCli({"run", f.fileName(), ws, "--backend", "podman", "--containers-conf", conf_});
        podman({"rmi", "--force", oldGlibc, noCupti}, conf_);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(f.fileName().toUtf8() +
                                ": 2 images cannot be traced, so no job was started: image " +
                                oldGlibc.toUtf8() +
                                " (Base): glibc 2.27 is older than the 2.28 the collector needs; image " +
                                noCupti.toUtf8() + " (Opt): no libcupti found in the image"),
                 r.err.constData());
        QVERIFY2(!r.err.contains(image_.toUtf8() + " ("), r.err.constData()); // the test image is traceable
        for (const QString& left : {ws, ws + ".runs", ws + ".lock"})
            QVERIFY2(!QFile::exists(left), qPrintable(left));
    }

    // The collector inside a container finds CUPTI itself (collectors/cupti/CuptiLibrary) and says in one
    // line why it cannot trace: no libcupti anywhere it looks (an image holding only glibc, which this
    // machine's loader cache cannot stand in for), or a CUPTI of another CUDA. It loads there with nothing
    // but the image's glibc beside it.
    void collectorInImageSaysWhyUntraced_data() {
        QTest::addColumn<bool>("withCupti"); // the test image, or its variant without the fake CUPTI
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QString>("line");
        QTest::newRow("no libcupti in the image")
            << false << QStringList{}
            << "cnp-collector: no libcupti found (libcupti.so.13, .so.12, .so neither in the loader's path "
               "nor "
               "in /usr/local/cuda/extras/CUPTI/lib64 or /usr/local/cuda/lib64); the job runs untraced";
        QTest::newRow("CUDA_HOME named in the message")
            << false << QStringList{"CUDA_HOME=/opt/cuda-13"}
            << "cnp-collector: no libcupti found (libcupti.so.13, .so.12, .so neither in the loader's path "
               "nor "
               "in /opt/cuda-13/extras/CUPTI/lib64 or /opt/cuda-13/lib64); the job runs untraced";
        QTest::newRow("CUPTI of CUDA 12.8 by CNP_CUPTI_PATH")
            << true << QStringList{"CNP_CUPTI_PATH=/opt/fake/libcupti.so.13", "FAKE_CUPTI_VERSION=26"}
            << "cnp-collector: CUPTI at /opt/fake/libcupti.so.13 is API version 26 (CUDA 12.8); its activity "
               "records are not the CUDA 13.x layouts this collector reads";
    }
    void collectorInImageSaysWhyUntraced() {
        QFETCH(bool, withCupti);
        QFETCH(QStringList, env);
        QFETCH(QString, line);
        QString image = image_;
        if (!withCupti) {
            image = variantImage(
                "bare", [](const QString& r) { return QFile::remove(r + "/opt/fake/libcupti.so.13"); });
            QVERIFY(!image.isEmpty());
        }
        QStringList args{"run",       "--rm",
                         "--network", "none",
                         "-v",        testpaths::collectorPath() + ":/opt/cnp/lib/libcnp-collector.so:ro",
                         "-e",        "CUDA_INJECTION64_PATH=/opt/cnp/lib/libcnp-collector.so",
                         "-e",        "CNP_OUTPUT_DIR=/tmp/traces"};
        for (const auto& e : env)
            args << "-e" << e;
        args << image << "/opt/harness/collector_harness"
             << "-"
             << "-"
             << "untraced";
        int code = -1;
        const QString out = podman(args, conf_, &code);
        if (!withCupti)
            podman({"rmi", "--force", image}, conf_);
        QCOMPARE(code, 0);
        QVERIFY2(out.startsWith(line) && out.count('\n') == 1, qPrintable(out));
    }

    // A flag podman does not know fails the first job with that cause, and no other job is started (each
    // would fail the same way); a program missing from the image is said as such.
    void engineFailuresSayWhy() {
        auto plan = containerPlan({"/bin/sh", "-c", "true"});
        plan.hash = "flag-" + plan.hash;
        plan.container.extraArgs = {"--network", "none", "--no-such-flag"};
        const QStringList m = messages(plan);
        QCOMPARE(m.size(), 2);
        QVERIFY2(m[0].startsWith("exit code 125: podman does not know the flag --no-such-flag (it came from "
                                 "container.extraArgs"),
                 qPrintable(m[0]));
        QVERIFY2(m[1].startsWith("not started: podman does not know the flag --no-such-flag"),
                 qPrintable(m[1]));

        auto missing = containerPlan({"/no/such/program"});
        missing.hash = "program-" + missing.hash;
        missing.configurations.resize(1);
        const QStringList n = messages(missing);
        QCOMPARE(n.size(), 1);
        // What says so: podman itself (runc), or with --init the init (tini: "exec /no/such/program failed").
        QVERIFY2(n[0].startsWith("exit code 127: the workload's program is not in image " + image_ + ": "),
                 qPrintable(n[0]));
        QVERIFY2(n[0].contains("/no/such/program") && n[0].contains("o such file or directory"),
                 qPrintable(n[0]));
    }

    void cancelLeavesNoContainer() {
        auto plan =
            containerPlan({"/opt/harness/collector_harness", "/opt/fake/libcupti.so.13", "-", "workload"});
        plan.hash = "cancel-" + plan.hash;
        plan.configurations.resize(1);
        plan.configurations[0].resolved.env.push_back({"HARNESS_STEPS", "1000", {}});
        plan.configurations[0].resolved.env.push_back({"HARNESS_STEP_MS", "100", {}});
        std::atomic<bool> cancel{false};
        const RunSummary s = run(plan, cancel, [&](const ProgressEvent& e) {
            if (e.state == JobState::Running)
                cancel.store(true);
        });
        QCOMPARE(s.cancelled, 1);
        const QString name = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        const QString left =
            podman({"ps", "-a", "--filter", "name=" + name, "--format", "{{.Names}}"}, conf_);
        QCOMPARE(left.trimmed(), QString());
    }
};

QTEST_GUILESS_MAIN(TestLaunchPodman)
#include "tst_launchpodman.moc"
