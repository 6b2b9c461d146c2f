// CSV export: RFC 4180 quoting (checked with an independent parser written here), one file per event
// table and per summary, and values checked against the Nsight Systems fixture itself (SQL through the
// SQLite C API on the fixture file: counts and duration sums) and against the metric identity
// compute + communication + memory + idle == window (docs/metrics.md).
#include "TestPaths.h"
#include "TestTraces.h"
#include "core/InputError.h"
#include "export/CsvExporter.h"
#include "export/CsvWriter.h"
#include "ingest/IngestPipeline.h"
#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace cnp;

namespace {

using Table = std::vector<std::vector<QString>>;

// A strict RFC 4180 reader: records end with CRLF, quoted fields may hold anything, "" is a quote.
// Returns false on any deviation (bare LF, stray quote, missing final CRLF).
bool parseCsv(const QByteArray& bytes, Table& out) {
    const QString s = QString::fromUtf8(bytes);
    std::vector<QString> row;
    QString field;
    qsizetype i = 0;
    const qsizetype n = s.size();
    while (i < n) {
        if (s[i] == '"') {
            ++i;
            for (;;) {
                if (i >= n)
                    return false;
                if (s[i] == '"') {
                    if (i + 1 < n && s[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += s[i++];
            }
            if (i < n && s[i] != ',' && s[i] != '\r')
                return false;
        } else {
            while (i < n && s[i] != ',' && s[i] != '\r') {
                if (s[i] == '"' || s[i] == '\n')
                    return false;
                field += s[i++];
            }
        }
        if (i >= n)
            return false; // the last record must end with CRLF
        row.push_back(field);
        field.clear();
        if (s[i] == ',') {
            ++i;
            continue;
        }
        if (i + 1 >= n || s[i + 1] != '\n')
            return false;
        i += 2;
        out.push_back(std::move(row));
        row.clear();
    }
    return true;
}

Table readCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    Table t;
    if (!parseCsv(f.readAll(), t))
        qFatal("%s is not RFC 4180 CSV", qPrintable(path));
    return t;
}

int column(const Table& t, const char* name) {
    for (std::size_t i = 0; i < t.front().size(); ++i)
        if (t.front()[i] == name)
            return int(i);
    qFatal("no column %s", name);
    return -1;
}

qint64 fixtureInt(const QString& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    qint64 v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

const QString kSaxpy = testpaths::dataDir() + QStringLiteral("/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");

} // namespace

class TestCsvExport : public QObject {
    Q_OBJECT

private slots:
    void quoting_data();
    void quoting();
    void awkwardNamesRoundTrip();
    void formulaNamesNeutralisedNumbersNot();
    void nsysRunTablesAndSummaries();
    void withoutSummaries();
};

void TestCsvExport::quoting_data() {
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("plain") << "cudaLaunchKernel"
                           << "cudaLaunchKernel";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("comma") << "f(int, float)"
                           << "\"f(int, float)\"";
    QTest::newRow("quote") << "say \"hi\""
                           << "\"say \"\"hi\"\"\"";
    QTest::newRow("newline") << "a\nb"
                             << "\"a\nb\"";
    QTest::newRow("carriage return") << "a\rb"
                                     << "\"a\rb\"";
    QTest::newRow("leading space") << " x"
                                   << "\" x\"";
    QTest::newRow("trailing space") << "x "
                                    << "\"x \"";
    QTest::newRow("inner space only") << "a b"
                                      << "a b";
    QTest::newRow("utf8") << QString::fromUtf8("f\xc3\xbcr") << QString::fromUtf8("f\xc3\xbcr");
    QTest::newRow("only quote") << "\""
                                << "\"\"\"\"";
    // Formula injection (OWASP): text that a spreadsheet would evaluate gets a leading single quote.
    QTest::newRow("formula =") << "=1+2"
                               << "'=1+2";
    QTest::newRow("formula + with a function") << "+SUM(A1:A9)"
                                               << "'+SUM(A1:A9)";
    QTest::newRow("formula - arithmetic") << "-2+3"
                                          << "'-2+3";
    QTest::newRow("formula @") << "@SUM(A1)"
                               << "'@SUM(A1)";
    QTest::newRow("leading tab") << "\tcmd"
                                 << "'\tcmd";
    QTest::newRow("leading CR (neutralised, then quoted)") << "\r=1"
                                                           << "\"'\r=1\"";
    QTest::newRow("formula with quotes and commas") << "=HYPERLINK(\"http://x\",\"y\")"
                                                    << "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"";
    QTest::newRow("lone minus") << "-"
                                << "'-";
    QTest::newRow("negative number stays numeric") << "-1.5"
                                                   << "-1.5";
    QTest::newRow("signed exponent number stays numeric") << "+3e-8"
                                                          << "+3e-8";
    QTest::newRow("number without leading digit") << "-.5"
                                                  << "-.5";
    QTest::newRow("dangling exponent is text") << "-1e"
                                               << "'-1e";
    QTest::newRow("operator inside, not leading") << "a=b"
                                                  << "a=b";
}

void TestCsvExport::quoting() {
    QFETCH(QString, in);
    QFETCH(QString, out);
    QCOMPARE(QString::fromStdString(CsvWriter::quote(in.toStdString())), out);
}

void TestCsvExport::awkwardNamesRoundTrip() {
    TraceData t = cnp::testing::tinyTrace();
    const std::string names[] = {"void gemm<float, 128, 64>(const float*, float*)", "say \"hi\", twice",
                                 "multi\nline\r\nname", " padded "};
    t.kernels[0].name = t.strings.intern(names[0]);
    t.kernels[1].name = t.strings.intern(names[1]);
    t.apiCalls[0].name = t.strings.intern(names[2]);
    t.cpuRanges[0].name = t.strings.intern(names[3]);
    QTemporaryDir dir;
    const auto res = CsvExporter(t, nullptr).write(dir.filePath("out").toStdString());
    QVERIFY(!res.notes.empty());
    const Table kernels = readCsv(dir.filePath("out/kernels.csv"));
    QCOMPARE(kernels.size(), std::size_t(3)); // header + 2 kernels
    const int name = column(kernels, "name");
    QCOMPARE(kernels[1][name], QString::fromStdString(names[0]));
    QCOMPARE(kernels[2][name], QString::fromStdString(names[1]));
    QCOMPARE(kernels[1][column(kernels, "start_ns")], QStringLiteral("0"));
    QCOMPARE(kernels[2][column(kernels, "duration_ns")], QStringLiteral("100"));
    QCOMPARE(kernels[1][column(kernels, "block_x")], QStringLiteral("128"));
    for (const auto& row : kernels)
        QCOMPARE(row.size(), kernels.front().size());
    const Table api = readCsv(dir.filePath("out/api_calls.csv"));
    QCOMPARE(api[1][column(api, "name")], QString::fromStdString(names[2]));
    const Table cpu = readCsv(dir.filePath("out/cpu_ranges.csv"));
    QCOMPARE(cpu[1][column(cpu, "name")], QString::fromStdString(names[3]));
    QCOMPARE(cpu[1][column(cpu, "start_ns")], QStringLiteral("-30"));
    const Table memcpys = readCsv(dir.filePath("out/memcpys.csv"));
    QCOMPARE(memcpys[1][column(memcpys, "copy_kind")], QStringLiteral("DtoH"));
    QCOMPARE(memcpys[1][column(memcpys, "bytes")], QStringLiteral("4096"));
}

// End to end through CsvExporter: a kernel named like a formula is neutralised; the numeric columns,
// negative ones included (cpu_ranges start_ns = -30 in tinyTrace), are written as numbers.
void TestCsvExport::formulaNamesNeutralisedNumbersNot() {
    TraceData t = cnp::testing::tinyTrace();
    t.kernels[0].name = t.strings.intern("=cmd|' /C calc'!A0");
    t.cpuRanges[0].name = t.strings.intern("-1.5");
    QTemporaryDir dir;
    CsvExporter(t, nullptr).write(dir.filePath("out").toStdString());
    const Table kernels = readCsv(dir.filePath("out/kernels.csv"));
    QCOMPARE(kernels[1][column(kernels, "name")], QStringLiteral("'=cmd|' /C calc'!A0"));
    const Table cpu = readCsv(dir.filePath("out/cpu_ranges.csv"));
    QCOMPARE(cpu[1][column(cpu, "name")], QStringLiteral("-1.5"));
    QCOMPARE(cpu[1][column(cpu, "start_ns")], QStringLiteral("-30"));
}

void TestCsvExport::nsysRunTablesAndSummaries() {
    QTemporaryDir dir;
    Workspace ws(dir.filePath("ws.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
    IngestRequest req;
    req.inputs = {kSaxpy.toStdString()};
    req.runName = "saxpy";
    const auto runId = ingest(ws, req).runId;
    const TraceData trace = ws.loadRun(runId);
    const RunSummaryReader summaries = summaryReaderOf(ws, runId);
    const QString out = dir.filePath("csv");
    const auto res = CsvExporter(trace, &summaries).write(out.toStdString());
    QVERIFY(res.notes.empty());
    QCOMPARE(res.files.size(), std::size_t(14));

    const qint64 kernelCount = fixtureInt(kSaxpy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const qint64 kernelNs = fixtureInt(kSaxpy, "SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    QCOMPARE(kernelCount, 5LL);
    const Table kernels = readCsv(out + "/kernels.csv");
    QCOMPARE(qint64(kernels.size()) - 1, kernelCount);
    qint64 sum = 0;
    for (std::size_t i = 1; i < kernels.size(); ++i) {
        sum += kernels[i][column(kernels, "duration_ns")].toLongLong();
        QCOMPARE(kernels[i][column(kernels, "name")],
                 QStringLiteral("saxpy(double *, double *, double *, double, int)"));
    }
    QCOMPARE(sum, kernelNs);
    const Table api = readCsv(out + "/api_calls.csv");
    QCOMPARE(
        qint64(api.size()) - 1,
        fixtureInt(kSaxpy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1)"));
    const Table memcpys = readCsv(out + "/memcpys.csv");
    qint64 bytes = 0;
    for (std::size_t i = 1; i < memcpys.size(); ++i)
        bytes += memcpys[i][column(memcpys, "bytes")].toLongLong();
    QCOMPARE(bytes, fixtureInt(kSaxpy, "SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));

    const Table stats = readCsv(out + "/kernel_stats.csv");
    QCOMPARE(stats.size(), std::size_t(2)); // one kernel name, one rank: the "all" row only
    QCOMPARE(stats[1][column(stats, "scope")], QStringLiteral("all"));
    QCOMPARE(stats[1][column(stats, "count")].toLongLong(), kernelCount);
    QCOMPARE(stats[1][column(stats, "total_ns")].toLongLong(), kernelNs);
    QCOMPARE(stats[1][column(stats, "min_ns")].toLongLong(),
             fixtureInt(kSaxpy, "SELECT min(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    QCOMPARE(stats[1][column(stats, "max_ns")].toLongLong(),
             fixtureInt(kSaxpy, "SELECT max(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    QCOMPARE(stats[1][column(stats, "percent")].toDouble(), 100.0);

    const Table br = readCsv(out + "/breakdown_per_rank.csv");
    QCOMPARE(br.size(), std::size_t(2));
    const auto& r = br[1];
    const qint64 window = r[column(br, "window_ns")].toLongLong();
    QCOMPARE(window,
             r[column(br, "window_end_ns")].toLongLong() - r[column(br, "window_start_ns")].toLongLong());
    QCOMPARE(r[column(br, "compute_ns")].toLongLong() + r[column(br, "communication_ns")].toLongLong() +
                 r[column(br, "memory_ns")].toLongLong() + r[column(br, "idle_ns")].toLongLong(),
             window);
    QCOMPARE(r[column(br, "compute_ns")].toLongLong(), kernelNs); // one stream: kernels never overlap
    QCOMPARE(r[column(br, "overlap_fraction")], QString());       // no communication: undefined, empty field
    // The whole-trace window starts at the first GPU activity (a memcpy) in absolute ns.
    const qint64 epoch = fixtureInt(kSaxpy, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
    const qint64 firstGpu =
        fixtureInt(kSaxpy, "SELECT min(s) FROM (SELECT min(start) s FROM CUPTI_ACTIVITY_KIND_KERNEL "
                           "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMCPY)");
    QCOMPARE(r[column(br, "window_start_ns")].toLongLong(), epoch + firstGpu);
    qint64 exclusive = 0;
    for (std::size_t c = 0; c < br.front().size(); ++c)
        if (br.front()[c].startsWith("exclusive_"))
            exclusive += r[c].toLongLong();
    QCOMPARE(exclusive, window); // categories + idle partition the window
}

void TestCsvExport::withoutSummaries() {
    QTemporaryDir dir;
    const TraceData t = cnp::testing::tinyTrace();
    const auto res = CsvExporter(t, nullptr).write(dir.filePath("x").toStdString());
    QCOMPARE(res.files.size(), std::size_t(10));
    QCOMPARE(res.notes.size(), std::size_t(1));
    QVERIFY(!QFile::exists(dir.filePath("x/kernel_stats.csv")));
    QVERIFY(QFile::exists(dir.filePath("x/flows.csv")));
    // A path that is a file, not a folder: a clear error naming it.
    QFile blocker(dir.filePath("file"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    QVERIFY_THROWS_EXCEPTION(InputError, CsvExporter(t, nullptr).write(dir.filePath("file").toStdString()));
}

QTEST_GUILESS_MAIN(TestCsvExport)
#include "tst_csvexport.moc"
