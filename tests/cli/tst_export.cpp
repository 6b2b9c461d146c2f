// `cnp export` end to end through the built binary: exit codes (0 ok, 1 usage, 2 bad input), the files
// it writes, and that `cnp ingest` reads a Chrome export back with the same kernel count and total
// kernel time as the run it came from (compared in SQL on the workspace; the fixture's own figures,
// 5 kernels and their duration sum, come from SQL on the Nsight Systems file).
#include "CliRunner.h"
#include "TestPaths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using cnp::testing::runCli;

namespace {

const QString kSaxpy = testpaths::dataDir() + QStringLiteral("/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");

qint64 sqlInt(const QString& path, const QString& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    qint64 v = -1;
    if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

} // namespace

class TestExportCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void chromeRoundTripThroughCli();
    void csvFolder();
    void perRankFilesRebuildRanks();
    void errors_data();
    void errors();

private:
    QTemporaryDir dir_;
    QString ws_;
};

void TestExportCli::initTestCase() {
    ws_ = dir_.filePath("ws.cnpdb");
    const auto r = runCli({"ingest", ws_, kSaxpy, "--run", "saxpy", "--quiet"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestExportCli::chromeRoundTripThroughCli() {
    const QString out = dir_.filePath("saxpy.json.gz");
    auto r = runCli({"export", ws_, "--run", "saxpy", "--format", "chrome", "--out", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.contains("trace events"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.read(2), QByteArray("\x1f\x8b")); // gzip magic
    r = runCli({"ingest", ws_, out, "--run", "again", "--quiet"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString q = "SELECT %1 FROM kernels WHERE run_id=(SELECT id FROM runs WHERE name='%2')";
    const qint64 n = sqlInt(kSaxpy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const qint64 ns = sqlInt(kSaxpy, "SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    QCOMPARE(n, 5LL);
    QCOMPARE(sqlInt(ws_, q.arg("count(*)", "saxpy")), n);
    QCOMPARE(sqlInt(ws_, q.arg("count(*)", "again")), n);
    QCOMPARE(sqlInt(ws_, q.arg("sum(end_ns-start_ns)", "again")), ns);
    QCOMPARE(sqlInt(ws_, q.arg("min(start_ns)", "again")), sqlInt(ws_, q.arg("min(start_ns)", "saxpy")));
}

void TestExportCli::csvFolder() {
    const QString out = dir_.filePath("csv");
    const auto r = runCli({"export", ws_, "--run", "saxpy", "--format", "csv", "--out", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const char* f : {"kernels.csv", "memcpys.csv", "api_calls.csv", "cpu_ranges.csv", "flows.csv",
                          "kernel_stats.csv", "breakdown_per_rank.csv"})
        QVERIFY2(QFile::exists(out + "/" + f), f);
    QVERIFY(r.out.contains("kernels.csv  5 rows"));
}

void TestExportCli::perRankFilesRebuildRanks() {
    // Two ranks of one job (HTA's trace_filter sample): one Chrome file per rank, ingested together,
    // gives back both ranks with the same kernels (count and total time per rank, in SQL).
    const QString ws = dir_.filePath("ranks.cnpdb");
    auto r = runCli({"ingest", ws, (testpaths::dataDir() + QStringLiteral("/hta/trace_filter")), "--run",
                     "two", "--quiet"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString r0 = dir_.filePath("r0.json"), r1 = dir_.filePath("r1.json.gz");
    r = runCli({"export", ws, "--run", "two", "--rank", "0", "--out", r0});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.contains("(1 rank)"));
    r = runCli({"export", ws, "--run", "two", "--rank", "1", "--out", r1});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({"ingest", ws, r0, r1, "--run", "again", "--quiet"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString q = "SELECT %1 FROM kernels WHERE rank=%3 AND run_id=(SELECT id FROM runs WHERE name='%2')";
    for (const char* rank : {"0", "1"}) {
        const qint64 n = sqlInt(ws, q.arg("count(*)", "two", rank));
        QVERIFY(n > 0);
        QCOMPARE(sqlInt(ws, q.arg("count(*)", "again", rank)), n);
        QCOMPARE(sqlInt(ws, q.arg("sum(end_ns-start_ns)", "again", rank)),
                 sqlInt(ws, q.arg("sum(end_ns-start_ns)", "two", rank)));
        QCOMPARE(sqlInt(ws, q.arg("min(start_ns)", "again", rank)),
                 sqlInt(ws, q.arg("min(start_ns)", "two", rank)));
    }
    r = runCli({"export", ws, "--run", "two", "--rank", "5", "--out", dir_.filePath("r5.json")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no rank 5"), r.err.constData());
    QVERIFY(!QFile::exists(dir_.filePath("r5.json")));
}

void TestExportCli::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("no run") << QStringList{"export", "WS", "--out", "OUT/x.json"} << 1 << "--run";
    QTest::newRow("no out") << QStringList{"export", "WS", "--run", "saxpy"} << 1 << "--out";
    QTest::newRow("bad format") << QStringList{"export",   "WS",  "--run", "saxpy",
                                               "--format", "xml", "--out", "OUT/x"}
                                << 1 << "xml";
    QTest::newRow("unknown run") << QStringList{"export", "WS", "--run", "nope", "--out", "OUT/x.json"} << 2
                                 << "nope";
    QTest::newRow("missing workspace")
        << QStringList{"export", "OUT/none.cnpdb", "--run", "saxpy", "--out", "OUT/x.json"} << 2
        << "none.cnpdb";
    QTest::newRow("unwritable out") << QStringList{"export", "WS",    "--run",
                                                   "saxpy",  "--out", "OUT/no/such/dir/x.json"}
                                    << 2 << "x.json";
}

void TestExportCli::errors() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir out;
    for (auto& a : args)
        a.replace("WS", ws_).replace("OUT", out.path());
    const auto r = runCli(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QCOMPARE(QString::fromUtf8(r.err).trimmed().count('\n'), 0); // one line
    QVERIFY(QDir(out.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
    QVERIFY(!QFile::exists(out.path() + "/none.cnpdb"));
}

QTEST_GUILESS_MAIN(TestExportCli)
#include "tst_export.moc"
