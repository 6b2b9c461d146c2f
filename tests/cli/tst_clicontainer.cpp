// The cnp container image (resources/container/Containerfile, docs/container.md) built and run with podman,
// offline. No registry is reachable here, so the test gives the Containerfile two local base images
// (`podman import` of rootfs tars made on the spot): the build stage's base is busybox plus a cnp staged
// from this build by the image's own resources/container/stage-cnp (CNP_PREBUILT=1: nothing compiled in
// the container), the runtime stage's base only the glibc libraries stage-cnp leaves to the base. So the
// Containerfile's source copies, its stages, the staged layout, the image's environment and entry point
// are the ones a site builds; apt-get and the compile of the build stage are not run here.
// Checked: the `cnp` put in the image links no Qt; the image ingests the demo traces from a read-only
// mount into a workspace on a mounted output folder, and its `cnp stats --json` and `cnp ablation --json`
// print byte for byte what this machine's cnp prints on the same traces; two containers each ingest-shard
// half of a run's ranks, and the study assembled here answers as the run ingested here into one file.
// Podman runs with the adjustments these VMs need (runc, explicit ulimits; shared/design/containers.md)
// from a CONTAINERS_CONF file. Without podman the test fails and says what to install.
#include "CliRunner.h"
#include "ContainerTestImage.h"
#include "ProgramRunner.h"
#include "TestPaths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

namespace {

using Run = ProgramRun;

// `program` with CONTAINERS_CONF set to `conf` when one is given.
Run runTool(const QString& program, const QStringList& args, const QString& conf = {},
            int timeoutMs = 120000) {
    auto env = QProcessEnvironment::systemEnvironment();
    if (!conf.isEmpty())
        env.insert("CONTAINERS_CONF", conf);
    return cnp::testing::runProgram(program, args, env, timeoutMs);
}

// Tars `root` to `tar`; empty on success, else why not.
QByteArray tarTree(const QString& root, const QString& tar) {
    const Run r = runTool("tar", {"-cf", tar, "-C", root, "."});
    return r.code == 0 ? QByteArray() : "tar " + root.toUtf8() + ": " + r.err;
}

} // namespace

class TestCliContainer : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString conf_, stageScript_;
    QStringList images_; // every image this test made, removed at the end
    QString image_;      // the cnp image

    Run podman(const QStringList& args, int timeoutMs = 120000) const {
        return runTool("podman", args, conf_, timeoutMs);
    }

    QString importImage(const QString& root, const QString& name) {
        const QString tar = root + ".tar";
        const QByteArray why = tarTree(root, tar);
        if (!why.isEmpty()) {
            qWarning("%s", why.constData());
            return {};
        }
        const QString tag = QString("localhost/%1:%2").arg(name).arg(QCoreApplication::applicationPid());
        const Run r = podman({"import", tar, tag});
        if (r.code != 0) {
            qWarning("podman import %s: %s", qPrintable(tar), r.err.constData());
            return {};
        }
        images_ << tag;
        QFile::remove(tar);
        return tag;
    }

    // `cnp ARGS` in the image, the demo traces at /in (read-only) and `out` at /out. The sanitizer options
    // of this run (scripts/test-sanitizers) go in too, with the suppressions file they name.
    // `in`: the host folder mounted at /in (default: the demo traces).
    Run inImage(const QString& out, const QStringList& args, const QString& in = {}) const {
        QStringList a{
            "run",       "--rm",
            "--network", "none",
            "-v",        (in.isEmpty() ? testpaths::sourceDir() + "/resources/demo" : in) + ":/in:ro",
            "-v",        out + ":/out"};
        for (const char* var : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"}) {
            const QString value = qEnvironmentVariable(var);
            if (value.isEmpty())
                continue;
            a << "-e" << QString("%1=%2").arg(var, value);
            const auto m = QRegularExpression("suppressions=([^:]+)").match(value);
            if (m.hasMatch())
                a << "-v" << m.captured(1) + ":" + m.captured(1) + ":ro";
        }
        return podman(a << image_ << args, 180000);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        conf_ = dir_.filePath("containers.conf");
        QVERIFY(writePodmanConf(conf_));
        const Run info = podman({"info", "--format", "{{.Host.OCIRuntime.Name}}"});
        QVERIFY2(info.code == 0,
                 qPrintable("podman cannot run here: install podman and runc (scripts/install-deps): " +
                            QString::fromUtf8(info.err + info.out).trimmed().left(300)));
        QVERIFY2(QFile::exists("/bin/busybox"),
                 "no /bin/busybox: install busybox-static (scripts/install-deps)");
        stageScript_ = testpaths::sourceDir() + "/resources/container/stage-cnp";
        const QString cnp = testpaths::cliPath();

        // The image's cnp needs no Qt: the CLI and the core library link none (CNP_CLI_ONLY builds them
        // without finding it).
        const Run ldd = runTool("ldd", {cnp});
        QCOMPARE(ldd.code, 0);
        QVERIFY2(!ldd.out.contains("libQt"), ldd.out.constData());

        QElapsedTimer t;
        t.start();
        // The build stage's base: busybox (build-cnp is a shell script) and this build's cnp staged in
        // /stage.
        const QString prebuilt = dir_.filePath("prebuilt");
        QVERIFY(QDir().mkpath(prebuilt + "/bin"));
        QVERIFY(QFile::copy("/bin/busybox", prebuilt + "/bin/busybox"));
        for (const char* tool : {"sh", "echo", "test", "["})
            QVERIFY(QFile::link("busybox", prebuilt + "/bin/" + tool));
        const Run staged =
            runTool("sh", {stageScript_, cnp, testpaths::sourceDir() + "/resources", prebuilt + "/stage"});
        QVERIFY2(staged.code == 0, staged.err.constData());
        QVERIFY(QFileInfo(prebuilt + "/stage/opt/cnp/lib").isDir());
        const QString buildBase = importImage(prebuilt, "cnp-container-test-build");
        QVERIFY(!buildBase.isEmpty());

        // The runtime stage's base: what Debian's slim image gives cnp, glibc (at the paths ldd names).
        const QString runtime = dir_.filePath("runtime");
        const Run baseLibs = runTool("sh", {stageScript_, "--base-libs", cnp});
        QVERIFY2(baseLibs.code == 0, baseLibs.err.constData());
        const QStringList libs = QString::fromUtf8(baseLibs.out).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(libs.size() >= 2, baseLibs.out.constData()); // at least the loader and libc
        for (const QString& lib : libs) {
            QVERIFY(QDir().mkpath(runtime + QFileInfo(lib).absolutePath()));
            QVERIFY2(QFile::copy(QFileInfo(lib).canonicalFilePath(), runtime + lib), qPrintable(lib));
        }
        QVERIFY(QDir().mkpath(runtime + "/tmp"));
        const QString runtimeBase = importImage(runtime, "cnp-container-test-runtime");
        QVERIFY(!runtimeBase.isEmpty());
        qInfo("base images: %lld ms", static_cast<long long>(t.restart()));

        // The Containerfile itself, its context the source tree.
        image_ = QString("localhost/cnp-container-test:%1").arg(QCoreApplication::applicationPid());
        const Run built = podman(
            {"build", "--layers=false", "-f", testpaths::sourceDir() + "/resources/container/Containerfile",
             "--build-arg", "BASE=" + buildBase, "--build-arg", "RUNTIME_BASE=" + runtimeBase, "--build-arg",
             "CNP_PREBUILT=1", "-t", image_, testpaths::sourceDir()},
            300000);
        QVERIFY2(built.code == 0, (built.out + built.err).right(2000).constData());
        images_ << image_;
        const Run size = podman({"image", "inspect", "--format", "{{.Size}}", image_});
        qInfo("podman build: %lld ms, image %s bytes", static_cast<long long>(t.elapsed()),
              size.out.trimmed().constData());
    }

    void cleanupTestCase() {
        for (const QString& image : images_)
            podman({"rmi", "--force", image});
    }

    // The image on the demo traces, against this machine's cnp on the same files: the same JSON.
    void sameJsonAsHost() {
        const QString out = dir_.filePath("out");
        QVERIFY(QDir().mkpath(out));
        const QString hostWs = dir_.filePath("host.cnpdb");
        QElapsedTimer t;
        t.start();
        for (const QString& c : {QStringLiteral("base"), QStringLiteral("compile")}) {
            const QStringList tail{"--run", c, "--config", c};
            const Run inside =
                inImage(out, QStringList{"ingest", "/out/ws.cnpdb", "/in/demo_" + c + ".json.gz"} + tail);
            QVERIFY2(inside.code == 0, (inside.out + inside.err).constData());
            const CliResult host =
                runCli(QStringList{"ingest", hostWs,
                                   testpaths::sourceDir() + "/resources/demo/demo_" + c + ".json.gz"} +
                       tail);
            QVERIFY2(host.exitCode == 0, host.err.constData());
        }
        QVERIFY(QFile::exists(out + "/ws.cnpdb")); // written by the container, on the host's folder
        const QList<QStringList> commands{{"stats", "WS", "--run", "base", "--json"},
                                          {"stats", "WS", "--run", "compile", "--json", "--top", "5"},
                                          {"ablation", "WS", "--json"}};
        for (const QStringList& command : commands) {
            QStringList inArgs = command, hostArgs = command;
            inArgs[1] = "/out/ws.cnpdb";
            hostArgs[1] = hostWs;
            const Run inside = inImage(out, inArgs);
            QVERIFY2(inside.code == 0, (inside.out + inside.err).constData());
            const CliResult host = runCli(hostArgs);
            QVERIFY2(host.exitCode == 0, host.err.constData());
            QJsonParseError error;
            QJsonDocument::fromJson(inside.out, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, inside.out.left(500).constData());
            QVERIFY2(inside.out == host.out,
                     qPrintable(command.join(' ') + ": the image printed\n" + inside.out.left(1000) +
                                "\nthis machine's cnp\n" + host.out.left(1000)));
        }
        qInfo("ingest, stats and ablation in the image and here: %lld ms",
              static_cast<long long>(t.elapsed()));
    }

    // Ingest in the cluster, containers standing in for nodes (issue 27.6, docs/schema.md "Shards written
    // alone"): two containers each write a shard of 2 of a run's 4 ranks on a host folder, this machine
    // assembles the study from them; its ablation and stats are those of the run ingested here into one file.
    void shardsWrittenInContainersAssembleHere() {
        const QString traces = dir_.filePath("traces"), shards = dir_.filePath("shards");
        QVERIFY(QDir().mkpath(shards));
        const CliResult synth = runCli({"synth", "--out", traces, "--nodes", "1", "--gpus-per-node", "4",
                                        "--steps", "3", "--layers", "1", "--configs", "Base", "--quiet"});
        QVERIFY2(synth.exitCode == 0, synth.err.constData());
        const QStringList runs = QDir(traces).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 1);
        const QString run = runs.front(), input = traces + "/" + run;
        const QStringList files = QDir(input).entryList({"*.cnpt"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 4);
        QStringList study{"study", "assemble", dir_.filePath("cluster.cnpstudy")};
        for (int k = 0; k < 2; ++k) {
            QStringList args{"ingest-shard", QString("/out/shard-%1.cnpdb").arg(k)};
            for (int r = 2 * k; r < 2 * k + 2; ++r)
                args << "/in/" + files[r];
            const Run inside =
                inImage(shards, args + QStringList{"--run", run, "--run-id", "1", "--quiet"}, input);
            QVERIFY2(inside.code == 0, (inside.out + inside.err).constData());
            study << shards + QString("/shard-%1.cnpdb").arg(k);
        }
        const CliResult assembled = runCli(study);
        QVERIFY2(assembled.exitCode == 0, assembled.err.constData());
        const QString single = dir_.filePath("single.cnpdb");
        const CliResult one = runCli({"ingest", single, input, "--run", run, "--quiet"});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        for (const QStringList& command :
             {QStringList{"ablation", "WS", "--json"}, QStringList{"stats", "WS", "--run", run, "--json"}}) {
            QStringList a = command, b = command;
            a[1] = single;
            b[1] = dir_.filePath("cluster.cnpstudy");
            const CliResult x = runCli(a), y = runCli(b);
            QVERIFY2(x.exitCode == 0 && y.exitCode == 0, (x.err + y.err).constData());
            QVERIFY(x.out.size() > 100);
            const QRegularExpression createdAt(QStringLiteral("\"created_at\": \"[^\"]*\""));
            QCOMPARE(QString::fromUtf8(y.out).replace(createdAt, "created_at"),
                     QString::fromUtf8(x.out).replace(createdAt, "created_at"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliContainer)
#include "tst_clicontainer.moc"
