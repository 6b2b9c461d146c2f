// `cnp collect`: usage errors, the environment it hands the command (NVTX_INJECTION64_PATH included) (checked
// with a shell that prints it), the command's exit status passed through, a missing collector library, and an
// end-to-end run in which the command is collector_harness loading the real libcnp-collector.so named by
// CUDA_INJECTION64_PATH (with the fake CUPTI), so a real .cnpt file is produced and listed.
#include "CnptReader.h"
#include "TestPaths.h"

#include <QtTest>

#include <csignal>

namespace {

struct Result {
    int code = -1;
    QString out, err;
};

Result runCollect(const QStringList& args, const QMap<QString, QString>& env = {}, const QString& cwd = {}) {
    QProcess p;
    auto e = QProcessEnvironment::systemEnvironment();
    e.remove("CNP_COLLECTOR_LIB");
    for (auto it = env.begin(); it != env.end(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.start(testpaths::cliPath(), QStringList{"collect"} + args);
    Result r;
    if (!p.waitForFinished(60000))
        return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestCmdCollect : public QObject {
    Q_OBJECT

private slots:
    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList{"--out", "x"} << "no command to run";
        QTest::newRow("empty command after --") << QStringList{"--"} << "no command to run";
        QTest::newRow("bad capture") << QStringList{"--capture", "steps:1", "--", "true"} << "--capture";
        QTest::newRow("unknown option") << QStringList{"--bogus", "--", "true"} << "unknown option --bogus";
        QTest::newRow("stray positional")
            << QStringList{"oops", "--", "true"} << "unexpected argument 'oops'";
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const auto r = runCollect(args, {{"CNP_COLLECTOR_LIB", testpaths::cliPath()}});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void environmentAndExitCode_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitWith");
        QTest::addColumn<QString>("expected"); // INJECTION|OUTPUT_DIR suffix|CONFIG|RUN|CAPTURE
        QTest::newRow("defaults") << QStringList{} << 0 << "LIB|/cnp-traces|||";
        QTest::newRow("labels and capture")
            << QStringList{"--out", "tr", "--config", "Base+ACCL", "--run", "r1", "--capture", "time:5"} << 7
            << "LIB|/tr|Base+ACCL|r1|time:5:0";
        QTest::newRow("steps capture")
            << QStringList{"--capture=steps:10:3"} << 42 << "LIB|/cnp-traces|||steps:10:3:step";
    }
    void environmentAndExitCode() {
        QFETCH(QStringList, options);
        QFETCH(int, exitWith);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString lib = dir.filePath("libcnp-collector.so");
        QFile(lib).open(QIODevice::WriteOnly); // only its existence matters here
        const QString script = QString("echo \"$CUDA_INJECTION64_PATH|$CNP_OUTPUT_DIR|$CNP_CONFIG|$CNP_RUN|"
                                       "$CNP_CAPTURE|$NVTX_INJECTION64_PATH\"; exit %1")
                                   .arg(exitWith);
        const auto r = runCollect(options + QStringList{"--", "sh", "-c", script},
                                  {{"CNP_COLLECTOR_LIB", lib}}, dir.path());
        QCOMPARE(r.code, exitWith);
        const QStringList got = r.out.trimmed().split('|');
        const QStringList want = expected.split('|');
        QCOMPARE(got.size(), 6);
        QCOMPARE(got[0], lib);
        QCOMPARE(got[5], lib); // NVTX is handed to the collector too, before the command's first NVTX call
        QVERIFY2(got[1].startsWith('/') && got[1].endsWith(want[1]), qPrintable(got[1])); // absolute
        QVERIFY(QDir(got[1]).exists());
        QCOMPARE(got[2], want[2]);
        QCOMPARE(got[3], want[3]);
        QCOMPARE(got[4], want[4]);
        QVERIFY2(r.err.contains("no trace written"), qPrintable(r.err));
    }

    // The command's signal dispositions are its caller's: a SIGINT cnp was started with ignored stays
    // ignored for the command, as it would be run alone (the hostile campaign's collector-noncuda class:
    // under a background shell, `sh -c 'kill -INT $$'` exits 0 alone and was killed, 130, under cnp).
    void ignoredSignalsStayIgnored_data() {
        QTest::addColumn<bool>("ignored");
        QTest::addColumn<int>("expected");
        QTest::newRow("SIGINT ignored by the caller") << true << 0;
        QTest::newRow("SIGINT default") << false << 128 + 2;
    }
    void ignoredSignalsStayIgnored() {
        QFETCH(bool, ignored);
        QFETCH(int, expected);
        QTemporaryDir dir;
        const QString lib = dir.filePath("libcnp-collector.so");
        QFile(lib).open(QIODevice::WriteOnly);
        // cnp inherits this process's disposition of SIGINT, set here either way (ctest itself may run with
        // it ignored, as a background job of a script does).
        const auto previous = std::signal(SIGINT, ignored ? SIG_IGN : SIG_DFL);
        QProcess p;
        auto e = QProcessEnvironment::systemEnvironment();
        e.insert("CNP_COLLECTOR_LIB", lib);
        p.setProcessEnvironment(e);
        p.start(testpaths::cliPath(),
                {"collect", "--out", dir.filePath("traces"), "--", "sh", "-c", "kill -INT $$"});
        const bool finished = p.waitForFinished(60000);
        std::signal(SIGINT, previous);
        QVERIFY(finished);
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), expected);
    }

    void commandNotFound() {
        QTemporaryDir dir;
        const auto r = runCollect({"--out", dir.path(), "--", "/nonexistent/program"},
                                  {{"CNP_COLLECTOR_LIB", testpaths::cliPath()}});
        QCOMPARE(r.code, 127);
        QVERIFY2(r.err.contains("cannot run /nonexistent/program"), qPrintable(r.err));
    }

    void missingCollector() {
        const auto r =
            runCollect({"--", "true"}, {{"CNP_COLLECTOR_LIB", "/nonexistent/libcnp-collector.so"}});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("libcnp-collector.so: not found"), qPrintable(r.err));
    }

    void endToEndWithRealCollector() {
#ifndef CNP_COLLECTOR_HARNESS_BUILT
        QSKIP("libcnp-collector.so is not built here (no CUPTI headers)");
#else
        QTemporaryDir dir;
        const auto r = runCollect({"--out", dir.filePath("traces"), "--config", "Base", "--run", "e2e", "--",
                                   testpaths::harnessPath(), testpaths::fakeCuptiPath(), "-", "exit"},
                                  {{"CNP_COLLECTOR_LIB", testpaths::collectorPath()}});
        QCOMPARE(r.code, 0);
        const QStringList files = QDir(dir.filePath("traces")).entryList({"*.cnpt"}, QDir::Files);
        QCOMPARE(files.size(), 1);
        QVERIFY2(r.err.contains("1 trace file in") && r.err.contains(files.first()), qPrintable(r.err));
        cnpt::CnptReader reader(dir.filePath("traces/" + files.first()).toStdString());
        QVERIFY(reader.cleanEnd());
        QCOMPARE(reader.headerValue("config"), std::string("Base"));
        QCOMPARE(reader.headerValue("run"), std::string("e2e"));
        int kernels = 0;
        reader.forEachRecord([&](cnpt::RecordType t, const unsigned char*, std::uint16_t, std::int64_t) {
            kernels += t == cnpt::RecordType::Kernel;
        });
        QCOMPARE(kernels, 30); // the harness's "exit" scenario: 3 steps x 10 launches
#endif
    }
};

QTEST_GUILESS_MAIN(TestCmdCollect)
#include "tst_cmdcollect.moc"
