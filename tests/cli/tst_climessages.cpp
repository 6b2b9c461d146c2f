// Every error names the file and the cause, in one line, with exit code 2 (docs/errors.md): corrupt,
// hostile and read-only workspaces, FIFOs and devices given as input, a full disk, a planted symlink.
// Inputs are made here; the trace is the HTA triton fixture. Mount-based cases (a tmpfs, read-only or
// 1 MiB small: the tests run as root, which ignores permission bits) skip, saying so, where mounting is
// not permitted.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

using namespace cnp::testing;

namespace {

const QString kTrace = testpaths::dataDir() + QStringLiteral("/hta/triton_example/triton_example.json.gz");
const QString kBigTrace = testpaths::dataDir() + QStringLiteral("/hta/nccl_parser_config/nccl_data.json.gz");

void rawExec(const QString& file, const QString& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(file.toUtf8().constData(), &db), SQLITE_OK);
    const int rc = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr);
    sqlite3_close(db);
    QCOMPARE(rc, SQLITE_OK);
}

// The one line on stderr, checked to start with "cnp CMD: FILE: " and to hold `cause`.
void expectError(const CliResult& r, const QString& command, const QString& file, const QString& cause) {
    const QString err = QString::fromUtf8(r.err).trimmed();
    QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + " " + err));
    QVERIFY2(!err.contains('\n'), qPrintable(err));
    QVERIFY2(err.startsWith("cnp " + command + ": " + file + ": "), qPrintable(err));
    QVERIFY2(err.contains(cause), qPrintable(err));
}

} // namespace

class TestCliMessages : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString ws_;

    QString path(const QString& name) const { return dir_.filePath(name); }
    QString copyOfWorkspace(const QString& name) {
        const QString p = path(name);
        QFile::remove(p);
        QFile::copy(ws_, p);
        return p;
    }
    // A tmpfs at `dir` with mount `options`; false (after QSKIP's message) where mounting is refused.
    static bool mountTmpfs(const QString& dir, const char* options) {
        QDir().mkpath(dir);
        return ::mount("cnp-test", dir.toUtf8().constData(), "tmpfs", 0, options) == 0;
    }

private slots:
    void initTestCase() {
        ws_ = path("good.cnpdb");
        const auto r = runCli({"ingest", ws_, kTrace, "--run", "good", "--quiet"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void corruptWorkspace() {
        const QString ws = copyOfWorkspace("corrupt.cnpdb");
        QFile f(ws);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        f.seek(16384); // every page after the first (the schema) is overwritten
        f.write(QByteArray(static_cast<int>(size - 16384), '\xa5'));
        f.close();
        expectError(runCli({"runs", ws}), "runs", ws,
                    "the file is corrupt (database disk image is malformed)");
    }

    void notAWorkspace_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("cause");
        QTest::newRow("text") << QByteArray(5000, 'x') << "not a readable workspace: not an SQLite database";
        QTest::newRow("empty") << QByteArray() << "not a CNP workspace (empty file)";
    }
    void notAWorkspace() {
        QFETCH(QByteArray, content);
        QFETCH(QString, cause);
        const QString ws = path("not.cnpdb");
        QFile f(ws);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        f.close();
        expectError(runCli({"runs", ws}), "runs", ws, cause);
        // Issue 33.6: writing commands refuse it too and leave it as it was (`edit` on a 0-byte file wrote
        // a 376 KB schema into it). Only `ingest` makes an empty file a workspace.
        const QList<QStringList> writers = {{"edit", ws, "--plan", "a,b"},
                                            {"edit", ws, "--ablation-source", "log"},
                                            {"reclassify", ws, "--reset"}};
        for (const QStringList& w : writers) {
            expectError(runCli(w), w[0], ws, cause);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), content);
            f.close();
            QVERIFY(!QFileInfo::exists(ws + "-wal"));
        }
    }

    // Issue 33.6: `edit --plan` committed the new plan_order, then failed reading the order back from a
    // corrupt `runs` table (exit 2, yet the workspace changed). The root page of `runs` is overwritten (meta
    // stays readable, so the write itself succeeds): the edit must fail and leave the file as it was.
    void failedPlanEditChangesNothing() {
        const QString ws = copyOfWorkspace("plan-corrupt-runs.cnpdb");
        rawExec(ws, "INSERT INTO meta(key, value) VALUES('plan_order', 'before') "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value; PRAGMA wal_checkpoint(TRUNCATE)");
        int pageSize = 0, runsRoot = 0;
        {
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(ws.toUtf8().constData(), &db), SQLITE_OK);
            sqlite3_stmt* st = nullptr;
            QCOMPARE(sqlite3_prepare_v2(db,
                                        "SELECT (SELECT page_size FROM pragma_page_size), rootpage FROM "
                                        "sqlite_master WHERE name = 'runs'",
                                        -1, &st, nullptr),
                     SQLITE_OK);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            pageSize = sqlite3_column_int(st, 0);
            runsRoot = sqlite3_column_int(st, 1);
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        QVERIFY(pageSize > 0 && runsRoot > 1);
        QFile f(ws);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.seek(qint64(runsRoot - 1) * pageSize));
        f.write(QByteArray(pageSize, '\xa5'));
        f.close();
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();

        expectError(runCli({"edit", ws, "--plan", "x,y"}), "edit", ws,
                    "the file is corrupt (database disk image is malformed)");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray after = f.readAll();
        f.close();
        QFile wal(ws + "-wal");
        QVERIFY(!wal.exists() || wal.size() == 0);
        QVERIFY2(after == before, "the failed edit changed the workspace");
        QVERIFY(!after.contains("x,y"));
    }

    void otherFilesAsWorkspace_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("cause");
        QTest::newRow("folder") << "a-folder"
                                << "is a folder, not a workspace file";
        QTest::newRow("SQLite, not a workspace")
            << "foreign.sqlite"
            << "not a CNP workspace (an SQLite file without the workspace tables)";
    }
    void otherFilesAsWorkspace() {
        QFETCH(QString, name);
        QFETCH(QString, cause);
        const QString ws = path(name);
        if (name == "a-folder")
            QVERIFY(QDir().mkpath(ws));
        else
            rawExec(ws, "CREATE TABLE IF NOT EXISTS t(x)");
        expectError(runCli({"runs", ws}), "runs", ws, cause);
    }

    void workspaceInMissingFolder() {
        const QString ws = path("no-such-folder/ws.cnpdb");
        expectError(runCli({"ingest", ws, kTrace}), "ingest", ws,
                    "cannot create workspace: folder " + path("no-such-folder") + " does not exist");
    }

    void folderWithoutTraces() {
        const QString folder = path("no-traces");
        QVERIFY(QDir().mkpath(folder));
        expectError(runCli({"ingest", path("nt.cnpdb"), folder}), "ingest", folder,
                    "folder holds no trace files (*.json, *.json.gz, *.cnpt, *.cnpt.gz, *.sqlite)");
        QVERIFY(!QFile::exists(path("nt.cnpdb")));
    }

    // Was "cnp runs: stoi".
    void schemaVersionGarbage() {
        const QString ws = copyOfWorkspace("version.cnpdb");
        rawExec(ws, "UPDATE meta SET value = 'two' WHERE key = 'schema_version'");
        expectError(runCli({"runs", ws}), "runs", ws,
                    "not a readable workspace: meta schema_version is 'two', not a version number");
    }

    void newerWorkspace() {
        const QString ws = copyOfWorkspace("newer.cnpdb");
        rawExec(ws, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
        expectError(runCli({"runs", ws}), "runs", ws,
                    "workspace schema version 99 is newer than this program's");
    }

    void triggerRefusedBeforeIngest() {
        const QString ws = copyOfWorkspace("trigger.cnpdb");
        rawExec(ws, "CREATE TRIGGER wipe AFTER INSERT ON runs BEGIN DELETE FROM runs; END");
        expectError(runCli({"ingest", ws, kTrace, "--run", "second"}), "ingest", ws,
                    "holds a trigger 'wipe'");
        expectError(runCli({"runs", ws}), "runs", ws, "holds a trigger 'wipe'");
    }

    // Opening a FIFO blocks until a writer comes: refused instead, at once.
    void specialFilesRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("asWorkspace");
        QTest::newRow("FIFO as trace") << "ingest" << false;
        QTest::newRow("FIFO as workspace") << "runs" << true;
        QTest::newRow("device as trace") << "ingest" << false;
    }
    void specialFilesRefused() {
        QFETCH(QString, command);
        QFETCH(bool, asWorkspace);
        QString special = "/dev/null";
        if (QByteArray(QTest::currentDataTag()).startsWith("FIFO")) {
            special = path("fifo" + QString::number(asWorkspace));
            QVERIFY(::mkfifo(special.toUtf8().constData(), 0600) == 0);
        }
        const QString ws = asWorkspace ? special : path("special.cnpdb");
        const QStringList args = asWorkspace ? QStringList{command, ws} : QStringList{command, ws, special};
        const auto r = runCli(args, 20000);
        expectError(r, command, special,
                    asWorkspace ? "is not a regular file (a FIFO, device or socket), not a workspace"
                                : "is not a regular file (a FIFO, device or socket), not a trace");
        QVERIFY(!QFile::exists(path("special.cnpdb")));
    }

    void truncatedGzipIsNotEmpty() {
        const QString trace = path("cut.json.gz");
        QFile in(kTrace), out(trace);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.read(10)); // the gzip header, no data
        out.close();
        expectError(runCli({"ingest", path("cut.cnpdb"), trace}), "ingest", trace,
                    "truncated gzip stream (the file ends inside the gzip header or data)");
    }

    // The bug: the report went through "FILE.part", following a planted symlink onto a victim file.
    void reportIgnoresPlantedSymlink() {
        const QString victim = path("victim.txt"), out = path("report.html");
        QFile v(victim);
        QVERIFY(v.open(QIODevice::WriteOnly));
        v.write("precious");
        v.close();
        QVERIFY(QFile::link(victim, out + ".part"));
        const auto r = runCli({"report", ws_, "--out", out, "--no-timestamp"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(v.open(QIODevice::ReadOnly));
        QCOMPARE(v.readAll(), QByteArray("precious"));
        QVERIFY(QFileInfo(out).size() > 1000);
    }

    // Issue 33.1: `export --out /dev/full` (as root) replaced the device with a regular file and exited 0.
    // Every output format refuses an existing output that is not a regular file, names it and what it
    // is, exits 2, and leaves it as it was. No real device is written to: a symlink to /dev/null stands
    // for one (refused as a symlink); the FIFO and the directory are made here.
    void outputsNeverReplaceNonRegularFiles_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("args"); // OUT stands for the output path
        QTest::addColumn<QString>("out");      // the output file name; a CSV folder's file after '/'
        QTest::addColumn<QString>("what");
        const QStringList chrome{"export", "WS", "--run", "good", "--out", "OUT"};
        const QStringList report{"report", "WS", "--out", "OUT", "--no-timestamp"};
        QTest::newRow("export chrome, symlink to a device") << "symlink-device" << chrome << "trace.json"
                                                            << "a symbolic link";
        QTest::newRow("export chrome, FIFO") << "fifo" << chrome << "trace.json.gz"
                                             << "a FIFO (named pipe)";
        QTest::newRow("export chrome, directory") << "directory" << chrome << "trace.json"
                                                  << "a directory";
        QTest::newRow("export csv, symlink inside the folder")
            << "symlink-device"
            << QStringList{"export", "WS", "--run", "good", "--format", "csv", "--out", "OUT"}
            << "csv/kernels.csv"
            << "a symbolic link";
        QTest::newRow("report html, symlink to a device") << "symlink-device" << report << "r.html"
                                                          << "a symbolic link";
        QTest::newRow("report pdf, FIFO") << "fifo" << report << "r.pdf"
                                          << "a FIFO (named pipe)";
        QTest::newRow("report json, symlink to a device") << "symlink-device" << report << "r.json"
                                                          << "a symbolic link";
    }
    void outputsNeverReplaceNonRegularFiles() {
        QFETCH(QString, kind);
        QFETCH(QStringList, args);
        QFETCH(QString, out);
        QFETCH(QString, what);
        QTemporaryDir d;
        const QString file = d.filePath(out);
        QDir().mkpath(QFileInfo(file).path());
        if (kind == "fifo")
            QCOMPARE(::mkfifo(file.toUtf8().constData(), 0600), 0);
        else if (kind == "directory")
            QVERIFY(QDir().mkdir(file));
        else
            QVERIFY(QFile::link("/dev/null", file));
        const QString outArg = out.contains('/') ? QFileInfo(file).path() : file;
        for (auto& a : args)
            a = a == "WS" ? ws_ : a == "OUT" ? outArg : a;
        expectError(runCli(args), args[0], file, "exists and is " + what + "; refusing to replace it");
        const QFileInfo after(file);
        if (kind == "symlink-device")
            QCOMPARE(after.symLinkTarget(), QStringLiteral("/dev/null"));
        else if (kind == "directory")
            QVERIFY(after.isDir());
        else
            QVERIFY(!after.isFile() && after.exists());
    }

    // Issue 33.2: one value of 1e308 (an option, a trace header, a shared workspace) made `cnp report`
    // loop forever. Every numeric option is bounded at intake: a usage error (exit 1) naming the option
    // and the range.
    void numericOptionsBounded_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString tokens = "option --tokens-per-step: 1e+308 is outside the range of tokens per step "
                               "(0 to 1e+12 tokens)";
        QTest::newRow("ingest --tokens-per-step 1e308")
            << QStringList{"ingest", "NEW", kTrace, "--tokens-per-step", "1e308"} << tokens;
        // The value is shown as given, not rounded onto the bound (it printed "1e+12 is outside ... 1e+12").
        QTest::newRow("ingest --tokens-per-step just above its bound")
            << QStringList{"ingest", "NEW", kTrace, "--tokens-per-step", "1.0000001e12"}
            << "option --tokens-per-step: 1.0000001e+12 is outside the range of tokens per step (0 to 1e+12 "
               "tokens)";
        QTest::newRow("ingest --tokens-per-step inf")
            << QStringList{"ingest", "NEW", kTrace, "--tokens-per-step", "inf"}
            << "option --tokens-per-step expects a finite number, got 'inf'";
        QTest::newRow("ingest --peak-flops 1e30")
            << QStringList{"ingest", "NEW", kTrace, "--peak-flops", "1e30"}
            << "option --peak-flops: 1e+30 is outside the range of peak FLOP/s (0 to 1e+22 FLOP/s)";
        QTest::newRow("report --tokens-per-step 1e308")
            << QStringList{"report", "WS", "--out", "OUT.html", "--tokens-per-step", "1e308"} << tokens;
        QTest::newRow("report --skip-first 1e308")
            << QStringList{"report", "WS", "--out", "OUT.html", "--skip-first", "1e308"}
            << "option --skip-first expects a number from 0 to 1e+09, got '1e308'";
        QTest::newRow("ablation --flops-per-token nan")
            << QStringList{"ablation", "WS", "--flops-per-token", "nan"}
            << "option --flops-per-token expects a finite number, got 'nan'";
        // The hostile campaign's numeric class: 1e308 was stored as the run's log throughput.
        QTest::newRow("edit --throughput 1e308")
            << QStringList{"edit", "WS", "--run", "good", "--unit", "tokens/s", "--throughput", "1e308"}
            << "option --throughput: 1e+308 is outside the range of a log throughput (0 to 1e+15 per second)";
        QTest::newRow("export --rank 1e308")
            << QStringList{"export", "WS", "--run", "good", "--out", "OUT.json", "--rank", "1e308"}
            << "option --rank expects a number from 0 to 2.14748e+09, got '1e308'";
    }
    void numericOptionsBounded() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir d;
        for (auto& a : args)
            a = a == "WS" ? ws_ : a == "NEW" ? d.filePath("new.cnpdb") : a.replace("OUT", d.filePath("out"));
        const auto r = runCli(args);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(err, "cnp " + args[0] + ": " + message + " (cnp " + args[0] + " --help)");
        QVERIFY(QDir(d.path()).isEmpty()); // no workspace, no output
    }

    // The same values stored in a (shared, crafted) workspace are refused when read back, naming the
    // workspace, the run and the column: `report` ends with exit 2 instead of looping.
    void storedPhysicalValuesBounded_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("cause");
        QTest::newRow("tokens_per_step 1e308") << "UPDATE runs SET tokens_per_step = 1e308"
                                               << "run 'good': tokens_per_step: 1e+308 is outside the range "
                                                  "of tokens per step (0 to 1e+12 tokens)";
        QTest::newRow("flops_per_step inf")
            << "UPDATE runs SET flops_per_step = 1e999"
            << "run 'good': flops_per_step: inf is outside the range of FLOPs per step (0 to 1e+28 FLOP)";
        QTest::newRow("peak_flops negative")
            << "UPDATE runs SET peak_flops = -1"
            << "run 'good': peak_flops: -1 is outside the range of peak FLOP/s (0 to 1e+22 FLOP/s)";
    }
    void storedPhysicalValuesBounded() {
        QFETCH(QString, sql);
        QFETCH(QString, cause);
        const QString ws = copyOfWorkspace("huge.cnpdb");
        rawExec(ws, sql);
        const QString out = path("huge-report.html");
        expectError(runCli({"report", ws, "--out", out, "--no-timestamp"}), "report", ws, cause);
        QVERIFY(!QFileInfo::exists(out));
        expectError(runCli({"runs", ws}), "runs", ws, cause);
    }

    // Issue 33.4: extreme event and summary values of a shared workspace are refused by every command
    // that reads them, naming the workspace, table, run, rank and value (exit 2), where the release build
    // printed "GPU window -1 ns, kernel time 9223372037 s" and the sanitizer build aborted. Nothing is
    // written: no output, and `reclassify` leaves the workspace as it was.
    void storedEventValuesBounded_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QStringList>("commands"); // each: "CMD ARGS..." after WS, OUT replaced
        QTest::addColumn<QString>("cause");
        const QString max = "4611686018427387903";
        QTest::newRow("kernel time INT64_MAX, window -1 ns")
            << "UPDATE summary_rank SET kernel_time_ns = 9223372036854775807, window_end_ns = "
               "window_start_ns - 1"
            << QStringList{"stats --run good", "ablation", "report --out OUT.html"}
            << "summary_rank: a row of run 'good' (rank 0): kernel_time_ns 9223372036854775807 is outside 0 "
               "to " +
                   max + " ns";
        QTest::newRow("kernel total INT64_MAX")
            << "UPDATE summary_kernel SET total_ns = 9223372036854775807 WHERE rank = -1"
            << QStringList{"diff good good"}
            << "summary_kernel: a row of run 'good' (all ranks): total_ns 9223372036854775807 is outside 0 "
               "to " +
                   max + " ns";
        QTest::newRow("kernel ends at INT64_MAX")
            << "UPDATE kernels SET end_ns = 9223372036854775807"
            << QStringList{"export --run good --out OUT.json", "export --run good --format csv --out OUT",
                           "reclassify --reset"}
            << "kernels: a row of run 'good' (rank 0): end_ns 9223372036854775807 is outside the range of "
               "stored times (-" +
                   max + " to " + max + " ns)";
        QTest::newRow("negative duration")
            << "UPDATE cpu_ranges SET end_ns = start_ns - 1"
            << QStringList{"export --run good --out OUT.json", "reclassify --reset"}
            << "cpu_ranges: a row of run 'good' (rank 0): end_ns";
    }
    void storedEventValuesBounded() {
        QFETCH(QString, sql);
        QFETCH(QStringList, commands);
        QFETCH(QString, cause);
        const QString ws = copyOfWorkspace("extreme.cnpdb");
        rawExec(ws, sql);
        QFile f(ws);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        for (const QString& c : commands) {
            QStringList args = c.split(' ');
            const QString command = args.takeFirst();
            const QString out = path("extreme-out");
            args.replaceInStrings("OUT", out);
            args.prepend(ws);
            args.prepend(command);
            expectError(runCli(args), command, ws, cause);
            for (const char* ext : {"", ".html", ".json"})
                QVERIFY2(!QFileInfo::exists(out + ext), qPrintable(c));
        }
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    // Issue 33.7: names holding terminal escapes (ESC, an OSC title sequence, an 8-bit CSI) were printed raw
    // by runs, stats, ablation and diff, and by error messages: every byte `cnp` writes to stdout and stderr
    // passes TerminalTextBuffer, so none of them reaches the terminal. The HTML report neutralises them too.
    void terminalEscapesNeutralised() {
        const QString ws = copyOfWorkspace("escapes.cnpdb");
        const QByteArray evil = "run\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                                "31m";
        const QString text = "CAST(X'" + evil.toHex() + "' AS TEXT)";
        rawExec(ws, "UPDATE runs SET name = " + text + ", config = " + text);
        const QString name = QString::fromUtf8(evil);
        const QString html = path("escapes.html");
        const QList<QStringList> commands = {{"runs", ws},
                                             {"stats", ws, "--run", name},
                                             {"ablation", ws},
                                             {"diff", ws, name, name},
                                             {"stats", ws, "--run", name + "x"}, // an error naming it
                                             {"report", ws, "--out", html, "--no-timestamp"}};
        for (const QStringList& c : commands) {
            const CliResult r = runCli(c);
            const QByteArray all = r.out + r.err;
            QVERIFY2(c[0] == "report" || all.contains("run?]0;pwned??[2J?31m"),
                     qPrintable(c[0] + ": " + all.left(400)));
            for (const char* bad : {"\x1b", "\x07", "\xc2\x9b"})
                QVERIFY2(!all.contains(bad), qPrintable(c[0]));
        }
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray page = f.readAll();
        QVERIFY(page.contains("run?]0;pwned??[2J?31m"));
        QVERIFY(!page.contains('\x1b') && !page.contains('\x07') && !page.contains("\xc2\x9b"));
    }

    // Ctrl-C during an ingest: the transaction rolls back, the created workspace is removed, one line says
    // so.
    // The ingest pauses at its first progress report until the signal arrives (CNP_TEST_PAUSE_INGEST), so
    // the interrupt always lands in the middle of the work.
    void ctrlCInterruptsCleanly() {
        const QString ws = path("interrupted.cnpdb");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_TEST_PAUSE_INGEST", "1");
        p.setProcessEnvironment(env);
        p.setReadChannel(QProcess::StandardError);
        p.start(testpaths::cliPath(), {"ingest", ws, kBigTrace, "--quiet"});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        while (!err.contains("paused for a signal") && p.state() == QProcess::Running)
            if (p.waitForReadyRead(120000))
                err += p.readAllStandardError();
        QVERIFY2(err.contains("paused for a signal"), err.constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitCode(), 2);
        QCOMPARE(QString::fromUtf8(err).trimmed().split('\n').last(),
                 QStringLiteral("cnp ingest: interrupted; nothing was written or changed"));
        QVERIFY(!QFile::exists(ws));
    }

    void fullDisk() {
        const QString mnt = path("full");
        if (!mountTmpfs(mnt, "size=1m"))
            QSKIP(qPrintable(QString("cannot mount a tmpfs here (%1): full-disk messages untested")
                                 .arg(std::strerror(errno))));
        const QString ws = mnt + "/ws.cnpdb";
        expectError(runCli({"ingest", ws, kBigTrace, "--quiet"}), "ingest", ws, "disk full");
        QVERIFY(!QFile::exists(ws)); // the workspace this failed ingest created is gone
        QFile filler(mnt + "/filler");
        QVERIFY(filler.open(QIODevice::WriteOnly));
        while (filler.write(QByteArray(4096, 'f')) == 4096 && filler.flush()) {
        }
        filler.close();
        const QString out = mnt + "/trace.json";
        expectError(runCli({"export", ws_, "--run", "good", "--out", out}), "export", out,
                    "No space left on device");
        QVERIFY(QDir(mnt).entryList(QDir::Files) == QStringList{"filler"}); // no partial file remains
        // Issue 33.6: a CSV export or CSV report on a full disk left its folder (and parents) behind; each
        // is written into a temporary folder beside it and removed on failure.
        const QString csv = mnt + "/new/csv";
        expectError(runCli({"export", ws_, "--run", "good", "--format", "csv", "--out", csv}), "export",
                    csv + "/ranks.csv", "No space left on device");
        const QString rep = mnt + "/report";
        expectError(runCli({"report", ws_, "--format", "csv", "--out", rep, "--no-timestamp"}), "report",
                    rep + "/configurations.csv", "No space left on device");
        QCOMPARE(QDir(mnt).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{"filler"});
        ::umount2(mnt.toUtf8().constData(), MNT_DETACH);
    }

    // Issue 33.7: a workspace copied with sqlite3's backup API (the safe way to copy a live database) into
    // a folder its reader cannot write failed with "attempt to write a readonly database": its -shm file
    // cannot be created there, which SQLite reports as SQLITE_READONLY (not SQLITE_CANTOPEN), so the
    // immutable fallback was not taken. Run as `nobody` (root ignores permission bits).
    void backupCopyInReadOnlyFolder() {
        if (::geteuid() != 0)
            QSKIP("needs root to run cnp as nobody");
        QTemporaryDir top; // mode 0700: opened for nobody below
        QVERIFY(QFile::setPermissions(top.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                      QFile::ReadOther | QFile::ExeOther));
        const QString folder = top.filePath("shared");
        QVERIFY(QDir().mkpath(folder));
        const QString backup = folder + "/backup.cnpdb", plain = folder + "/plain.cnpdb";
        QVERIFY(QFile::copy(ws_, plain));
        sqlite3 *from = nullptr, *to = nullptr;
        QCOMPARE(sqlite3_open(ws_.toUtf8().constData(), &from), SQLITE_OK);
        QCOMPARE(sqlite3_open(backup.toUtf8().constData(), &to), SQLITE_OK);
        sqlite3_backup* b = sqlite3_backup_init(to, "main", from, "main");
        QVERIFY(b);
        QCOMPARE(sqlite3_backup_step(b, -1), SQLITE_DONE);
        sqlite3_backup_finish(b);
        sqlite3_close(to);
        sqlite3_close(from);
        for (const QString& f : {backup, plain})
            QVERIFY(QFile::setPermissions(f, QFile::ReadOwner | QFile::ReadOther));
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther |
                                                  QFile::ExeOther));
        for (const QString& f : {backup, plain}) {
            QProcess p;
            p.start("setpriv",
                    {"--reuid=65534", "--regid=65534", "--clear-groups", testpaths::cliPath(), "runs", f});
            QVERIFY(p.waitForFinished(60000));
            const QByteArray err = p.readAllStandardError();
            if (err.contains("setpriv:"))
                QSKIP(err.constData());
            QVERIFY2(p.exitCode() == 0, err.constData());
            QVERIFY(p.readAllStandardOutput().contains("good"));
        }
        QVERIFY(!QFileInfo::exists(backup + "-shm"));
    }

    void readOnlyMount() {
        const QString mnt = path("ro");
        if (!mountTmpfs(mnt, "size=8m"))
            QSKIP(qPrintable(QString("cannot mount a tmpfs here (%1): read-only mounts untested")
                                 .arg(std::strerror(errno))));
        const QString ws = mnt + "/ws.cnpdb";
        QVERIFY(QFile::copy(ws_, ws));
        QVERIFY(::mount(nullptr, mnt.toUtf8().constData(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
        const auto runs = runCli({"runs", ws});
        QVERIFY2(runs.exitCode == 0, runs.err.constData());
        QVERIFY(runs.out.contains("good"));
        const auto stats = runCli({"stats", ws, "--run", "good"});
        QVERIFY2(stats.exitCode == 0, stats.err.constData());
        expectError(runCli({"edit", ws, "--remove", "good"}), "edit", ws,
                    "workspace is read-only (Read-only file system)");
        expectError(runCli({"ingest", ws, kTrace, "--run", "again"}), "ingest", ws,
                    "workspace is read-only (Read-only file system)");
        // Issue 33.7: a new workspace there said "filesystem error: cannot remove" (its cleanup threw).
        const QString fresh = mnt + "/new.cnpdb";
        const CliResult created = runCli({"ingest", fresh, kTrace, "--run", "new"});
        QVERIFY2(!created.err.contains("filesystem error"), created.err.constData());
        expectError(created, "ingest", fresh, "read-only");
        ::umount2(mnt.toUtf8().constData(), MNT_DETACH);
    }
};

QTEST_GUILESS_MAIN(TestCliMessages)
#include "tst_climessages.moc"
