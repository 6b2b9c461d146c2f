// `cnp run --backend docker` for real, as a user types it: the test uses the Docker daemon DOCKER_HOST (or
// the default socket) names when one answers, and otherwise starts its own dockerd (Debian's docker.io):
// its own --data-root, --exec-root, pid file and unix socket under a temporary folder, no bridge and no
// iptables rules (the jobs run with --network none), DOCKER_HOST pointing at it, readiness awaited for at
// most 30 s, stopped by its PID at the end (and by the kernel, PR_SET_PDEATHSIG, should the test die).
// The image is the tiny one tst_launchpodman builds (ContainerTestImage.h), `docker import`ed. Checked
// through the cnp binary: traced runs land with the traces written inside the container (trace retrieval
// through the mounted output folder) and the log's figures (log capture); the collector's variables are
// injected and a plan value arrives verbatim; the collector's mount is read-only; SIGINT stops the running
// job and its container is gone afterwards (`docker ps -a`); re-running resumes.
#include "CliRunner.h"
#include "CollectorPaths.h"
#include "ContainerTestImage.h"
#include "TestPaths.h"
#include "store/Workspace.h"

#include <QtTest>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

using namespace cnp;

namespace {

struct Result {
    int code = -1;
    QString out; // stdout and stderr
};

Result docker(const QStringList& args, int timeoutMs = 60000) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("docker", args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.out = "docker " + args.join(' ') + ": timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAll());
    return r;
}

// A dockerd of this test's own, or none when a daemon already answers.
class DockerDaemon {
public:
    ~DockerDaemon() { stop(); }

    // Points DOCKER_HOST at a daemon that answers; false with `why` when none can be had.
    bool ensure(const QString& root, QString& why) {
        if (docker({"version", "--format", "{{.Server.Version}}"}, 10000).code == 0)
            return true; // the user's daemon (DOCKER_HOST or the default socket)
        if (QStandardPaths::findExecutable("dockerd").isEmpty()) {
            why = "no dockerd";
            return false;
        }
        root_ = root;
        QDir().mkpath(root + "/data");
        QDir().mkpath(root + "/exec");
        const QString socket = "unix://" + root + "/docker.sock";
        process_.setStandardOutputFile(root + "/dockerd.log");
        process_.setProcessChannelMode(QProcess::MergedChannels);
        // The daemon must not outlive a test that crashed.
        process_.setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGTERM); });
        process_.start("dockerd", {"--data-root", root + "/data", "--exec-root", root + "/exec", "-H", socket,
                                   "--pidfile", root + "/docker.pid", "--iptables=false", "--bridge=none"});
        if (!process_.waitForStarted(10000)) {
            why = process_.errorString();
            return false;
        }
        qputenv("DOCKER_HOST", socket.toUtf8());
        QElapsedTimer t;
        t.start();
        Result v;
        while (t.elapsed() < 30000 && process_.state() == QProcess::Running) {
            v = docker({"version", "--format", "{{.Server.Version}}"}, 5000);
            if (v.code == 0) {
                qInfo("dockerd %s ready after %lld ms", qPrintable(v.out.trimmed()), t.elapsed());
                return true;
            }
            QThread::msleep(100);
        }
        QFile log(root + "/dockerd.log");
        log.open(QIODevice::ReadOnly);
        const QList<QByteArray> lines = log.readAll().trimmed().split('\n');
        why = process_.state() == QProcess::Running ? "not ready after 30 s"
                                                    : "exited: " + QString::fromUtf8(lines.last());
        stop();
        return false;
    }

    // SIGTERM to dockerd's PID (it stops its containerd); SIGKILL after 20 s, and then its containerd too.
    void stop() {
        if (process_.state() == QProcess::NotRunning)
            return;
        ::kill(static_cast<pid_t>(process_.processId()), SIGTERM);
        if (process_.waitForFinished(20000))
            return;
        ::kill(static_cast<pid_t>(process_.processId()), SIGKILL);
        process_.waitForFinished();
        QFile pid(root_ + "/exec/containerd/containerd.pid");
        if (pid.open(QIODevice::ReadOnly))
            if (const pid_t c = pid.readAll().trimmed().toInt(); c > 0)
                ::kill(c, SIGKILL);
    }

private:
    QProcess process_;
    QString root_;
};

QList<QJsonObject> jsonLines(const QByteArray& out) {
    QList<QJsonObject> objs;
    for (const auto& line : out.split('\n'))
        if (!line.isEmpty())
            objs << QJsonDocument::fromJson(line).object();
    return objs;
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The folder of a job (its name is the folder's) from the "running" line of `config` r1.
QString jobFolder(const QList<QJsonObject>& progress, const QString& config) {
    for (const auto& o : progress)
        if (o["config"] == config && o["repeat"].toInt() == 1 && o["rank"].isNull() &&
            o["state"] == "running")
            return o["message"].toString();
    return {};
}

} // namespace

class TestLaunchDocker : public QObject {
    Q_OBJECT

    QTemporaryDir dir_{QDir::tempPath() + "/cnp-docker-XXXXXX"}; // short: a unix socket path has 108 bytes
    DockerDaemon daemon_;
    QString image_;

    // A plan of the harness stand-in in the test image: `configs` are YAML list items.
    QString writePlan(const QString& name, const QString& command, const QString& configs) const {
        const QString path = dir_.filePath(name + ".yaml");
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QString("name: docker %1\n"
                        "workload:\n  command: %2\n"
                        "repeats: {traced: 1}\n"
                        "tokensPerStep: 1024\n"
                        "logMetric: {regex: 'throughput ([0-9.]+) tokens/s', unit: tokens/s}\n"
                        "timeout: 60\n"
                        "container: {gpuFlags: '', extraArgs: [--network, none]}\n"
                        "configurations:\n%3")
                    .arg(name, command, QString(configs).replace("IMAGE", image_))
                    .toUtf8());
        return path;
    }

    static QString harness() {
        return "['/opt/harness/collector_harness', '/opt/fake/libcupti.so.13', '-', workload]";
    }

    testing::CliResult cnpRun(const QString& plan, const QString& ws) {
        return testing::runCli({"run", plan, ws, "--backend", "docker", "--progress", "json"}, 120000);
    }

private slots:
    void initTestCase() {
        if (!kCollectorBuilt)
            QSKIP("libcnp-collector.so is not built here (no CUPTI headers)");
        qputenv("CNP_COLLECTOR_LIB", testpaths::collectorPath().toLocal8Bit());
        qputenv("DOCKER_CONFIG", dir_.filePath("client").toUtf8()); // the client's config stays ours
        QString why;
        if (!QFile::exists("/bin/busybox") || !daemon_.ensure(dir_.filePath("d"), why))
            QSKIP(qPrintable("dockerd cannot start here (install docker.io busybox-static: "
                             "scripts/install-deps; dockerd needs root): " +
                             why.trimmed().left(200)));
        const QString tar =
            testing::buildTestImageTar(dir_.path(), testpaths::harnessPath(), testpaths::collectorPath(),
                                       testpaths::fakeCuptiPath(), why);
        QVERIFY2(!tar.isEmpty(), qPrintable(why));
        image_ = QString("localhost/cnp-launch-test:%1").arg(QCoreApplication::applicationPid());
        const Result imported = docker({"import", tar, image_});
        QVERIFY2(imported.code == 0, qPrintable(imported.out));
    }

    void cleanupTestCase() {
        if (!image_.isEmpty())
            docker({"rmi", "--force", image_});
        daemon_.stop();
    }

    void tracedRunsLandAndResume() {
        const QString plan =
            writePlan("traced", harness(),
                      "  - {name: Base, image: IMAGE, env: {HARNESS_THROUGHPUT: '1000'}}\n"
                      "  - {name: Base+Opt, extends: Base, env: {HARNESS_THROUGHPUT: '2000'}, "
                      "args: [--opt]}\n");
        const QString ws = dir_.filePath("traced.cnpdb");
        const auto r = cnpRun(plan, ws);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto progress = jsonLines(r.out);
        QCOMPARE(progress.last()["done"].toInt(), 2);
        {
            Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
            for (const char* name : {"Base-r1", "Base+Opt-r1"}) {
                const auto run = w.findRun(name);
                QVERIFY2(run, name);
                QCOMPARE(run->kernelCount, 30); // the .cnpt written inside the container, read back
                QCOMPARE(QString::fromStdString(w.runAttributes(run->id).at("launch.backend")), "docker");
            }
            // The harness prints throughput 2000 + 100 i for steps i = 0..2: the median is 2100.
            QCOMPARE(
                QString::fromStdString(w.runAttributes(w.findRun("Base+Opt-r1")->id).at("log.throughput")),
                "2100");
        }
        const QByteArray log = readFile(jobFolder(progress, "Base+Opt") + "/node0.log");
        QVERIFY2(log.contains("arg: --opt\n"), log.constData()); // the configuration's args, through docker
        const auto again = cnpRun(plan, ws);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(jsonLines(again.out).last()["skipped"].toInt(), 2); // resume
    }

    void environmentAndReadOnlyCollector() {
        const QString plan =
            writePlan("env",
                      "[/bin/sh, -c, 'if touch /opt/cnp/lib/libcnp-collector.so; then echo WRITABLE; "
                      "else echo READONLY; fi; env']",
                      "  - {name: Base, image: IMAGE, env: {PLAN_VALUE: '$(rm -rf ~) `x`'}}\n");
        const auto r = cnpRun(plan, dir_.filePath("env.cnpdb"));
        QCOMPARE(r.exitCode, 2); // a shell uses no CUDA: no trace, so the job fails, and says why
        const auto progress = jsonLines(r.out);
        QCOMPARE(progress.last()["failed"].toInt(), 1);
        const QString job = jobFolder(progress, "Base");
        const QByteArray log = readFile(job + "/node0.log");
        QVERIFY2(log.contains("READONLY\n"), log.constData());
        QVERIFY(log.contains("CUDA_INJECTION64_PATH=/opt/cnp/lib/libcnp-collector.so\n"));
        QVERIFY(log.contains("NVTX_INJECTION64_PATH=/opt/cnp/lib/libcnp-collector.so\n"));
        QVERIFY(log.contains("CNP_OUTPUT_DIR=/cnp/out\n"));
        QVERIFY(log.contains("CNP_CONFIG=Base\n"));
        QVERIFY(log.contains("CNP_RUN=Base-r1\n"));
        QVERIFY(log.contains("CNP_IMAGE=" + image_.toUtf8() + "\n"));
        QVERIFY(log.contains("PLAN_VALUE=$(rm -rf ~) `x`\n"));
        const QString name = QFileInfo(job).fileName();
        QCOMPARE(docker({"ps", "-a", "--filter", "name=" + name, "--format", "{{.Names}}"}).out.trimmed(),
                 QString()); // --rm: the finished container is gone too
    }

    void sigintLeavesNoContainer() {
        const QString plan = writePlan(
            "cancel", harness(),
            "  - {name: Base, image: IMAGE, env: {HARNESS_STEPS: '1000', HARNESS_STEP_MS: '100'}}\n");
        QProcess p;
        p.start(testpaths::cliPath(),
                {"run", plan, dir_.filePath("cancel.cnpdb"), "--backend", "docker", "--progress", "json"});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (jobFolder(jsonLines(out), "Base").isEmpty() && t.elapsed() < 30000 &&
               p.state() == QProcess::Running) {
            p.waitForReadyRead(100);
            out += p.readAllStandardOutput();
        }
        const QString name = QFileInfo(jobFolder(jsonLines(out), "Base")).fileName();
        QVERIFY2(!name.isEmpty(), out.constData());
        ::kill(static_cast<pid_t>(p.processId()),
               SIGINT); // as soon as the job runs: its container may not yet
        QVERIFY(p.waitForFinished(60000));
        out += p.readAllStandardOutput();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 130,
                 out + p.readAllStandardError());
        QCOMPARE(jsonLines(out).last()["cancelled"].toInt(), 1);
        QCOMPARE(docker({"ps", "-a", "--filter", "name=" + name, "--format", "{{.Names}} {{.Status}}"})
                     .out.trimmed(),
                 QString());
    }
};

QTEST_GUILESS_MAIN(TestLaunchDocker)
#include "tst_launchdocker.moc"
