// Nsight Systems SQLite importer against the two real exports in tests/data/nsys (schema 2.9.1 and
// 3.13.2). Every expected value is obtained independently of the importer: by SQL run here, through
// the SQLite C API, on the fixture file itself (the queries are the specification of the mapping in
// docs/nsys-mapping.md). A few hand-checked constants (kernel counts, driver version) guard against
// both sides being empty; they were read with the sqlite3 shell when the test was written.
// Hostile exports (issue 14) are copies of a fixture edited here: views in place of tables, times that
// overflow int64, and a query that only a raised cancel flag can end.
#include "TestPaths.h"
#include "core/InputError.h"
#include "core/TimeBounds.h"
#include "import/Importer.h"
#include "import/nsys/NsysDatabase.h"
#include "import/nsys/NsysNames.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

using namespace cnp;

namespace {

const QString kSaxpy = testpaths::dataDir() + QStringLiteral("/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
const QString kClover = testpaths::dataDir() + QStringLiteral("/nsys/perlmutter-cloverleaf-cuda.sqlite");

// Read-only SQL on a fixture, independent of the importer's code.
class FixtureDb {
public:
    explicit FixtureDb(const QString& path) {
        if (sqlite3_open_v2(path.toUtf8().constData(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            qFatal("cannot open fixture %s", qPrintable(path));
    }
    ~FixtureDb() { sqlite3_close(db_); }
    bool hasTable(const char* t) const {
        return integer(QString("SELECT count(*) FROM sqlite_master WHERE name='%1'").arg(t)) == 1;
    }
    // First column of the first row; `fallback` when the query fails (absent table) or is NULL.
    qint64 integer(const QString& sql, qint64 fallback = 0) const {
        sqlite3_stmt* st = nullptr;
        qint64 v = fallback;
        if (sqlite3_prepare_v2(db_, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return v;
    }
    QString text(const QString& sql) const {
        sqlite3_stmt* st = nullptr;
        QString v;
        if (sqlite3_prepare_v2(db_, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            v = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
        return v;
    }
    // Rows of (text, integer).
    std::vector<std::pair<QString, qint64>> pairs(const QString& sql) const {
        std::vector<std::pair<QString, qint64>> out;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK)
            while (sqlite3_step(st) == SQLITE_ROW)
                out.emplace_back(QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))),
                                 sqlite3_column_int64(st, 1));
        sqlite3_finalize(st);
        return out;
    }

private:
    sqlite3* db_ = nullptr;
};

TraceData importNsys(const QString& path) {
    return makeNsysImporter()->read(path.toStdString(), ProgressSink{});
}

QByteArray head(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(4096);
}

template <typename V> qint64 sumDurations(const V& v) {
    qint64 s = 0;
    for (const auto& e : v)
        s += e.end - e.start;
    return s;
}

template <typename V> qint64 minStart(const V& v) {
    qint64 m = INT64_MAX;
    for (const auto& e : v)
        m = std::min<qint64>(m, e.start);
    return m;
}

void expectInputError(const QString& file, const QString& fragment) {
    try {
        importFile(file.toStdString());
        QFAIL(qPrintable("no InputError for " + file));
    } catch (const InputError& e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.contains(file), qPrintable(what));
        QVERIFY2(what.contains(fragment, Qt::CaseInsensitive), qPrintable(what));
        QVERIFY2(!what.contains('\n'), "one line");
    }
}

// A writable copy of `fixture` in `dir` with `sql` run on it.
QString editedCopy(const QTemporaryDir& dir, const QString& fixture, const QString& sql) {
    const QString path = dir.filePath("edited.sqlite");
    QFile::remove(path);
    if (!QFile::copy(fixture, path))
        qFatal("cannot copy %s", qPrintable(fixture));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    sqlite3* db = nullptr;
    char* err = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK ||
        sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &err) != SQLITE_OK)
        qFatal("cannot edit the copy: %s", err ? err : sqlite3_errmsg(db));
    sqlite3_close(db);
    return path;
}

// Rows of an infinite recursive CTE: any query over it runs until interrupted.
const QString kEndless = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) ";

} // namespace

class TestNsysImporter : public QObject {
    Q_OBJECT

private slots:
    void stripSuffix_data();
    void stripSuffix();
    void canRead();
    void counts_data();
    void counts();
    void timesAreAbsoluteNs_data();
    void timesAreAbsoluteNs();
    void longestKernelAttributes_data();
    void longestKernelAttributes();
    void memcpyKindsAndBytes_data();
    void memcpyKindsAndBytes();
    void apiNamesWithoutVersion_data();
    void apiNamesWithoutVersion();
    void flowsJoinByCorrelationAndProcess_data();
    void flowsJoinByCorrelationAndProcess();
    void ranksProcessesAndGpus_data();
    void ranksProcessesAndGpus();
    void nvtxRangesDomainsAndMarks();
    void synchronizationRanges();
    void noEnvironmentInWorkspace();
    void handWrittenRowsInACopy();
    void badFiles_data();
    void badFiles();
    void badFileLeavesWorkspaceUnchanged();
    void viewsAreNotTables_data();
    void viewsAreNotTables();
    void cancelInterruptsAnEndlessQuery();
    void timesOutOfRangeAreSkipped();
    void timesNotIntegersAreSkipped_data();
    void timesNotIntegersAreSkipped();
};

void TestNsysImporter::stripSuffix_data() {
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("runtime") << "cudaLaunchKernel_v7000"
                             << "cudaLaunchKernel";
    QTest::newRow("ptsz kept") << "cudaMemcpyAsync_ptsz_v7000"
                               << "cudaMemcpyAsync_ptsz";
    QTest::newRow("driver v2") << "cuMemAlloc_v2"
                               << "cuMemAlloc";
    QTest::newRow("plain") << "cudaFree"
                           << "cudaFree";
    QTest::newRow("digits not version") << "cudaMalloc3D"
                                        << "cudaMalloc3D";
    QTest::newRow("bare _v") << "foo_v"
                             << "foo_v";
    QTest::newRow("only suffix") << "_v1"
                                 << "_v1";
    QTest::newRow("empty") << ""
                           << "";
}

void TestNsysImporter::stripSuffix() {
    QFETCH(QString, in);
    QFETCH(QString, out);
    const std::string s = in.toStdString();
    QCOMPARE(QString::fromStdString(std::string(nsys::stripApiVersionSuffix(s))), out);
}

void TestNsysImporter::canRead() {
    auto imp = makeNsysImporter();
    QVERIFY(imp);
    QCOMPARE(QString::fromStdString(imp->formatName()), QStringLiteral("nsys"));
    QVERIFY(imp->canRead(kSaxpy.toStdString(), head(kSaxpy).toStdString()));
    QVERIFY(imp->canRead(kClover.toStdString(), head(kClover).toStdString()));
    QVERIFY(!imp->canRead("x.json", "{\"traceEvents\": []}"));
    QTemporaryDir dir;
    const QString ws = dir.filePath("w.cnpdb");
    { Workspace w(ws.toStdString(), Workspace::Mode::CreateIfMissing); }
    QVERIFY2(!imp->canRead(ws.toStdString(), head(ws).toStdString()), "a workspace is not an import source");
}

void TestNsysImporter::counts_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("sql");
    QTest::addColumn<qint64>("handChecked"); // -1: none
    const char* apiSql = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1)";
    QTest::newRow("saxpy kernels") << kSaxpy << "kernels"
                                   << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" << 5LL;
    QTest::newRow("saxpy memcpys") << kSaxpy << "memcpys"
                                   << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY" << 15LL;
    QTest::newRow("saxpy memsets") << kSaxpy << "memsets"
                                   << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET" << 0LL;
    // eventClass 0 = runtime, 1 = driver; 67 ("CUDA backtrace") duplicates 38 of the calls.
    QTest::newRow("saxpy api") << kSaxpy << "api" << apiSql << 57LL;
    QTest::newRow("clover kernels") << kClover << "kernels"
                                    << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" << 1312LL;
    QTest::newRow("clover memcpys") << kClover << "memcpys"
                                    << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY" << 279LL;
    QTest::newRow("clover memsets (no table)") << kClover << "memsets"
                                               << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET" << 0LL;
    QTest::newRow("clover api") << kClover << "api" << apiSql << 3048LL;
    // CPU ranges = synchronization records + NVTX marks/push-pop/start-end of the GPU process.
    const char* cpuSql =
        "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) + "
        "(SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34,59,60) AND (globalTid>>24)&16777215 IN "
        "(SELECT (globalPid>>24)&16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL))";
    QTest::newRow("saxpy cpu ranges") << kSaxpy << "cpuRanges" << cpuSql << 22LL;
    // cloverleaf has no NVTX_EVENTS table: only the 1312 synchronization records.
    QTest::newRow("clover cpu ranges")
        << kClover << "cpuRanges"
        << "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" << 1312LL;
}

void TestNsysImporter::counts() {
    QFETCH(QString, file);
    QFETCH(QString, what);
    QFETCH(QString, sql);
    QFETCH(qint64, handChecked);
    const FixtureDb db(file);
    const qint64 expected = db.integer(sql);
    if (handChecked >= 0)
        QCOMPARE(expected, handChecked);
    const TraceData t = importNsys(file);
    const qint64 got = what == "kernels"     ? qint64(t.kernels.size())
                       : what == "memcpys"   ? qint64(t.memcpys.size())
                       : what == "memsets"   ? qint64(t.memsets.size())
                       : what == "api"       ? qint64(t.apiCalls.size())
                       : what == "cpuRanges" ? qint64(t.cpuRanges.size())
                                             : -1;
    QCOMPARE(got, expected);
    QCOMPARE(t.info.skipped.count, 0LL);
}

void TestNsysImporter::timesAreAbsoluteNs_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("2.9.1") << kSaxpy;
    QTest::newRow("3.13.2") << kClover;
}

void TestNsysImporter::timesAreAbsoluteNs() {
    QFETCH(QString, file);
    const FixtureDb db(file);
    const qint64 epoch = db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
    QVERIFY(epoch > 1600000000000000000LL); // a 2020s Unix time in ns
    const TraceData t = importNsys(file);
    QCOMPARE(minStart(t.kernels), epoch + db.integer("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    QCOMPARE(sumDurations(t.kernels), db.integer("SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    QCOMPARE(minStart(t.memcpys), epoch + db.integer("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
    QCOMPARE(sumDurations(t.memcpys), db.integer("SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
    const char* api = "FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1)";
    QCOMPARE(minStart(t.apiCalls), epoch + db.integer(QString("SELECT min(start) ") + api));
    QCOMPARE(sumDurations(t.apiCalls), db.integer(QString("SELECT sum(end-start) ") + api));
    qint64 maxEnd = 0;
    for (const auto& a : t.apiCalls)
        maxEnd = std::max<qint64>(maxEnd, a.end);
    QCOMPARE(maxEnd, epoch + db.integer(QString("SELECT max(end) ") + api));
}

void TestNsysImporter::longestKernelAttributes_data() {
    timesAreAbsoluteNs_data();
}

void TestNsysImporter::longestKernelAttributes() {
    QFETCH(QString, file);
    const FixtureDb db(file);
    const qint64 epoch = db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
    const QString longest = "FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY end-start DESC, start LIMIT 1";
    const TraceData t = importNsys(file);
    auto it =
        std::max_element(t.kernels.begin(), t.kernels.end(), [](const KernelEvent& a, const KernelEvent& b) {
            return a.end - a.start != b.end - b.start ? a.end - a.start < b.end - b.start : a.start > b.start;
        });
    QVERIFY(it != t.kernels.end());
    QCOMPARE(it->start, epoch + db.integer("SELECT start " + longest));
    QCOMPARE(it->end, epoch + db.integer("SELECT end " + longest));
    QCOMPARE(QString::fromStdString(t.strings.at(it->name)),
             db.text("SELECT (SELECT value FROM StringIds WHERE id=demangledName) " + longest));
    QCOMPARE(qint64(it->device), db.integer("SELECT deviceId " + longest));
    QCOMPARE(it->stream, db.integer("SELECT streamId " + longest));
    QCOMPARE(it->correlation, db.integer("SELECT correlationId " + longest));
    QCOMPARE(qint64(it->grid[0]), db.integer("SELECT gridX " + longest));
    QCOMPARE(qint64(it->grid[1]), db.integer("SELECT gridY " + longest));
    QCOMPARE(qint64(it->grid[2]), db.integer("SELECT gridZ " + longest));
    QCOMPARE(qint64(it->block[0]), db.integer("SELECT blockX " + longest));
    QCOMPARE(qint64(it->block[1]), db.integer("SELECT blockY " + longest));
    QCOMPARE(qint64(it->block[2]), db.integer("SELECT blockZ " + longest));
    QCOMPARE(qint64(it->registers), db.integer("SELECT registersPerThread " + longest));
    QCOMPARE(qint64(it->staticSmem), db.integer("SELECT staticSharedMemory " + longest));
    QCOMPARE(qint64(it->dynamicSmem), db.integer("SELECT dynamicSharedMemory " + longest));
    // Every kernel name is the demangled name: compare the per-name counts.
    std::map<QString, qint64> ours;
    for (const auto& k : t.kernels)
        ++ours[QString::fromStdString(t.strings.at(k.name))];
    std::map<QString, qint64> theirs;
    for (const auto& [name, n] :
         db.pairs("SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                  "ON s.id=k.demangledName GROUP BY s.value"))
        theirs[name] = n;
    QCOMPARE(ours, theirs);
}

void TestNsysImporter::memcpyKindsAndBytes_data() {
    timesAreAbsoluteNs_data();
}

void TestNsysImporter::memcpyKindsAndBytes() {
    QFETCH(QString, file);
    const FixtureDb db(file);
    const TraceData t = importNsys(file);
    // copyKind 1 = HtoD, 2 = DtoH (CUPTI values); srcKind/dstKind 0 = pageable, 2 = device (nsys values).
    for (int kind : {1, 2}) {
        qint64 n = 0, bytes = 0;
        for (const auto& m : t.memcpys)
            if (int(m.kind) == kind) {
                ++n;
                bytes += m.bytes;
            }
        QCOMPARE(n,
                 db.integer(
                     QString("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind=%1").arg(kind)));
        QCOMPARE(
            bytes,
            db.integer(
                QString("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind=%1").arg(kind)));
    }
    qint64 pageableToDevice = 0;
    for (const auto& m : t.memcpys)
        if (m.srcKind == MemoryKind::Pageable && m.dstKind == MemoryKind::Device) {
            ++pageableToDevice;
            QCOMPARE(QString::fromStdString(t.strings.at(m.name)),
                     QStringLiteral("Memcpy HtoD (Pageable -> Device)"));
        }
    QCOMPARE(pageableToDevice,
             db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind=0 AND dstKind=2"));
    QVERIFY(pageableToDevice > 0);
}

void TestNsysImporter::apiNamesWithoutVersion_data() {
    timesAreAbsoluteNs_data();
}

void TestNsysImporter::apiNamesWithoutVersion() {
    QFETCH(QString, file);
    const FixtureDb db(file);
    const TraceData t = importNsys(file);
    std::map<QString, qint64> ours;
    qint64 driver = 0;
    for (const auto& a : t.apiCalls) {
        ++ours[QString::fromStdString(t.strings.at(a.name))];
        driver += a.kind == ApiKind::Driver;
    }
    // Independent stripping with a regular expression on the names SQL returns.
    static const QRegularExpression version("_v[0-9]+$");
    std::map<QString, qint64> theirs;
    for (auto [name, n] :
         db.pairs("SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
                  "s.id=r.nameId WHERE eventClass IN (0,1) GROUP BY s.value"))
        theirs[name.remove(version)] += n;
    QCOMPARE(ours, theirs);
    QCOMPARE(driver, db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass=1"));
    for (const auto& [name, n] : ours)
        QVERIFY2(!name.contains(version), qPrintable(name));
}

void TestNsysImporter::flowsJoinByCorrelationAndProcess_data() {
    timesAreAbsoluteNs_data();
}

void TestNsysImporter::flowsJoinByCorrelationAndProcess() {
    QFETCH(QString, file);
    const FixtureDb db(file);
    const qint64 epoch = db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
    const TraceData t = importNsys(file);
    auto joinSql = [&](const char* table, const char* what) {
        return QString(
                   "SELECT %2 FROM %1 g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
                   "r.correlationId=g.correlationId "
                   "AND (r.globalTid>>24)&16777215 = (g.globalPid>>24)&16777215 AND r.eventClass IN (0,1)")
            .arg(table, what);
    };
    qint64 expected = 0, expectedCpuSum = 0, expectedGpuSum = 0;
    for (const char* table :
         {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
        if (!db.hasTable(table))
            continue;
        const qint64 n = db.integer(joinSql(table, "count(*)"));
        expected += n;
        expectedCpuSum += db.integer(joinSql(table, "sum(r.start)"));
        expectedGpuSum += db.integer(joinSql(table, "sum(g.start)"));
    }
    QCOMPARE(qint64(t.flows.size()), expected);
    QVERIFY(expected > 0);
    // Sums of session-relative times (absolute ones would overflow int64 in SQL).
    qint64 cpuSum = 0, gpuSum = 0;
    for (const auto& f : t.flows) {
        cpuSum += f.cpuTs - epoch;
        gpuSum += f.gpuTs - epoch;
        QVERIFY(f.cpuTs <= f.gpuTs);
    }
    QCOMPARE(cpuSum, expectedCpuSum);
    QCOMPARE(gpuSum, expectedGpuSum);
    // The launching thread of the first kernel's flow.
    const qint64 firstCorr =
        db.integer("SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1");
    const qint64 tid = db.integer(QString("SELECT globalTid & 16777215 FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                                          "WHERE correlationId=%1 AND eventClass IN "
                                          "(0,1)")
                                      .arg(firstCorr));
    auto f = std::find_if(t.flows.begin(), t.flows.end(),
                          [&](const Flow& x) { return x.correlation == firstCorr; });
    QVERIFY(f != t.flows.end());
    QCOMPARE(f->tid, tid);
}

void TestNsysImporter::ranksProcessesAndGpus_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("driver"); // hand-formatted from NvDriverVersion 52510517
    QTest::addColumn<QString>("cuda");   // from CudaDriverVersion 12000
    QTest::newRow("2.9.1") << kSaxpy << "525.105.17"
                           << "12.0";
    QTest::newRow("3.13.2") << kClover << "525.105.17"
                            << "12.0";
}

void TestNsysImporter::ranksProcessesAndGpus() {
    QFETCH(QString, file);
    QFETCH(QString, driver);
    QFETCH(QString, cuda);
    const FixtureDb db(file);
    QCOMPARE(db.text("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='NvDriverVersion'"),
             QStringLiteral("52510517"));
    const TraceData t = importNsys(file);
    QCOMPARE(t.ranks.size(), std::size_t(1)); // one process with GPU work in each fixture
    const auto& r = t.ranks.front();
    QCOMPARE(r.rank, 0);
    QCOMPARE(r.pid, db.integer("SELECT p.pid FROM PROCESSES p JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON "
                               "k.globalPid=p.globalPid LIMIT 1"));
    QCOMPARE(r.gpuNames.size(), std::size_t(1));
    QCOMPARE(
        QString::fromStdString(r.gpuNames[0]),
        db.text(
            "SELECT name FROM TARGET_INFO_GPU WHERE id=(SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL)"));
    QCOMPARE(
        QString::fromStdString(r.gpuUuids[0]),
        db.text(
            "SELECT uuid FROM TARGET_INFO_GPU WHERE id=(SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL)"));
    QCOMPARE(QString::fromStdString(t.info.host),
             db.text("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='Hostname'"));
    QCOMPARE(QString::fromStdString(t.info.driverVersion), driver);
    QCOMPARE(QString::fromStdString(t.info.cudaVersion), cuda);
    QCOMPARE(QString::fromStdString(t.info.sourceFormat), QStringLiteral("nsys"));
    QCOMPARE(t.info.worldSize, 1);
    QVERIFY(t.info.env.empty());
    // Every imported CPU event belongs to the GPU process.
    for (const auto& a : t.apiCalls)
        QCOMPARE(a.pid, r.pid);
    for (const auto& c : t.cpuRanges)
        QCOMPARE(c.pid, r.pid);
}

void TestNsysImporter::nvtxRangesDomainsAndMarks() {
    const FixtureDb db(kSaxpy);
    const qint64 epoch = db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
    const TraceData t = importNsys(kSaxpy);
    std::map<QString, qint64> byName;   // NVTX ranges per name
    std::map<QString, qint64> byDomain; // NVTX ranges per domain name
    qint64 nvtx = 0, nvtxDuration = 0;
    for (const auto& c : t.cpuRanges) {
        if (c.kind != CpuRangeKind::Nvtx)
            continue;
        ++nvtx;
        nvtxDuration += c.end - c.start;
        ++byName[QString::fromStdString(t.strings.at(c.name))];
        ++byDomain[QString::fromStdString(t.strings.at(c.domain))];
    }
    QCOMPARE(nvtx, db.integer("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34,59,60)"));
    QCOMPARE(nvtxDuration, db.integer("SELECT sum(end-start) FROM NVTX_EVENTS WHERE eventType IN (59,60)"));
    // Registered strings (textId) in the "MPI" domain (created by the eventType 75 row), and plain text.
    QCOMPARE(db.text("SELECT text FROM NVTX_EVENTS WHERE eventType=75 AND domainId=1"),
             QStringLiteral("MPI"));
    QCOMPARE(byDomain["MPI"],
             db.integer("SELECT count(*) FROM NVTX_EVENTS WHERE eventType=59 AND domainId=1"));
    QCOMPARE(byName["MPI_Send"],
             db.integer("SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id=n.textId "
                        "WHERE eventType=59 AND s.value='MPI_Send'"));
    QCOMPARE(byName["MPI_Send"], 10LL);
    QCOMPARE(byName["saxpy"],
             db.integer("SELECT count(*) FROM NVTX_EVENTS WHERE text='saxpy' AND eventType=59"));
    QCOMPARE(byName["saxpy"], 5LL);
    QCOMPARE(byDomain[""], byName["saxpy"]); // the default domain has no name
    // The first "saxpy" range, at absolute time.
    Ns first = INT64_MAX;
    for (const auto& c : t.cpuRanges)
        if (t.strings.at(c.name) == "saxpy")
            first = std::min(first, c.start);
    QCOMPARE(first, epoch + db.integer("SELECT min(start) FROM NVTX_EVENTS WHERE text='saxpy'"));
}

void TestNsysImporter::synchronizationRanges() {
    const FixtureDb db(kClover);
    const TraceData t = importNsys(kClover);
    qint64 n = 0, duration = 0, withThread = 0;
    for (const auto& c : t.cpuRanges) {
        if (c.kind != CpuRangeKind::Other)
            continue;
        ++n;
        duration += c.end - c.start;
        QCOMPARE(QString::fromStdString(t.strings.at(c.name)),
                 QStringLiteral("Event sync")); // syncType 1 label
        QCOMPARE(QString::fromStdString(t.strings.at(c.domain)), QStringLiteral("CUDA synchronization"));
        withThread += c.tid != 0;
    }
    QCOMPARE(n, db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE syncType=1"));
    QCOMPARE(duration, db.integer("SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
    QCOMPARE(withThread, n);
}

void TestNsysImporter::noEnvironmentInWorkspace() {
    // The cloverleaf export carries the profiled job's environment, including a PMI secret.
    const FixtureDb db(kClover);
    const QString secret =
        db.text("SELECT value FROM META_DATA_CAPTURE WHERE value LIKE 'PMI_SHARED_SECRET=%'");
    QVERIFY2(secret.startsWith("PMI_SHARED_SECRET=\""), qPrintable(secret));
    const QByteArray secretValue = secret.mid(int(qstrlen("PMI_SHARED_SECRET=\""))).chopped(1).toUtf8();
    QCOMPARE(secretValue.size(), 20);

    const TraceData t = importNsys(kClover);
    for (const auto& s : t.strings.all()) {
        QVERIFY(!QByteArray::fromStdString(s).contains(secretValue));
        QVERIFY(!QByteArray::fromStdString(s).contains("SLURM_"));
    }
    QTemporaryDir dir;
    const QString wsPath = dir.filePath("ws.cnpdb");
    {
        Workspace ws(wsPath.toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {kClover.toStdString(), kSaxpy.toStdString()};
        req.runName = "two";
        const auto res = ingest(ws, req);
        QCOMPARE(res.ranks, 2); // both files hold rank 0; the second becomes rank 1
    }
    QByteArray bytes;
    for (const QString& f : QDir(dir.path()).entryList(QDir::Files)) {
        QFile file(dir.filePath(f));
        QVERIFY(file.open(QIODevice::ReadOnly));
        bytes += file.readAll();
    }
    QVERIFY(bytes.size() > 100000);
    QVERIFY(bytes.contains("cudaLaunchKernel")); // the data is there (uncompressed text) ...
    QVERIFY(!bytes.contains(secretValue));       // ... the secret and the environment are not
    QVERIFY(!bytes.contains("PMI_SHARED_SECRET"));
    QVERIFY(!bytes.contains("SLURM_JOB"));
    QVERIFY(!bytes.contains("DeviceEnvironment"));
}

void TestNsysImporter::handWrittenRowsInACopy() {
    // Rows the fixtures lack, written by hand into a copy of the 2.9.1 fixture: a memset and its launch,
    // an NVTX mark, a start/end range, an unterminated push/pop range, a kernel ending before it starts,
    // a second GPU process (pid 4242, named "MPI Rank 1" through NVTX) and a process without GPU work.
    QTemporaryDir dir;
    const QString path = dir.filePath("edited.sqlite");
    QVERIFY(QFile::copy(kSaxpy, path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    const qint64 g1 = 302119223558144LL;      // saxpy's globalPid: pid 1230493
    const qint64 vm = g1 - (1230493LL << 24); // the bits above the pid
    const qint64 t1 = g1 + 1230493;           // its main thread
    const qint64 g2 = vm + (4242LL << 24), t2 = g2 + 4243;
    const qint64 g3 = vm + (777LL << 24), t3 = g3 + 777; // no GPU work
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        const QString sql =
            QString(
                "INSERT INTO StringIds VALUES(90001,'cudaMemsetAsync_v3020');"
                "INSERT INTO StringIds VALUES(90002,'k2');"
                "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET(start,end,deviceId,contextId,streamId,correlationId,"
                " globalPid,value,bytes,memKind) VALUES(2000000000,2000001000,0,1,7,9001,%1,0,4096,2);"
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start,end,eventClass,globalTid,correlationId,nameId,"
                " returnValue) VALUES(1999999000,1999999500,0,%2,9001,90001,0);"
                "INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid) VALUES(2000002000,NULL,34,"
                " 'checkpoint',%2);"
                "INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid,endGlobalTid) VALUES(2000003000,"
                " 2000004000,60,'io',%2,%2);"
                "INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid) "
                "VALUES(2000005000,NULL,59,'open',%2);"
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start,end,deviceId,contextId,streamId,correlationId,"
                " globalPid,demangledName,shortName,registersPerThread,gridX,gridY,gridZ,blockX,blockY,"
                "blockZ,"
                " staticSharedMemory,dynamicSharedMemory,localMemoryPerThread,localMemoryTotal,gridId)"
                " VALUES(3000000000,2999999000,0,1,7,9002,%1,670,671,1,1,1,1,1,1,1,0,0,0,0,1);"
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start,end,deviceId,contextId,streamId,correlationId,"
                " globalPid,demangledName,shortName,registersPerThread,gridX,gridY,gridZ,blockX,blockY,"
                "blockZ,"
                " staticSharedMemory,dynamicSharedMemory,localMemoryPerThread,localMemoryTotal,gridId)"
                " VALUES(4000000000,4000002000,0,1,7,5,%3,90002,90002,8,1,1,1,32,1,1,0,0,0,0,2);"
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start,end,eventClass,globalTid,correlationId,nameId,"
                " returnValue) VALUES(3999990000,3999995000,0,%4,5,90001,0);"
                "INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid) VALUES(100,NULL,39,'MPI Rank "
                "1',%4);"
                "INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid) "
                "VALUES(5000,6000,59,'elsewhere',%5);")
                .arg(g1)
                .arg(t1)
                .arg(g2)
                .arg(t2)
                .arg(t3);
        char* err = nullptr;
        QVERIFY2(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &err) == SQLITE_OK, err);
        sqlite3_close(db);
    }
    const FixtureDb db(kSaxpy);
    const qint64 epoch = db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
    const TraceData t = importNsys(path);

    // Ranks by MPI rank name, not by pid: pid 4242 < 1230493 but it is "MPI Rank 1".
    QCOMPARE(t.ranks.size(), std::size_t(2));
    QCOMPARE(t.ranks[0].rank, 0);
    QCOMPARE(t.ranks[0].pid, 1230493LL);
    QCOMPARE(t.ranks[1].rank, 1);
    QCOMPARE(t.ranks[1].pid, 4242LL);
    QCOMPARE(t.info.worldSize, 2);

    // The negative-duration kernel and the unterminated range are skipped and counted.
    QCOMPARE(t.info.skipped.count, 2LL);
    QCOMPARE(qint64(t.kernels.size()), 5LL + 1);
    const auto k2 =
        std::find_if(t.kernels.begin(), t.kernels.end(), [](const KernelEvent& k) { return k.rank == 1; });
    QVERIFY(k2 != t.kernels.end());
    QCOMPARE(QString::fromStdString(t.strings.at(k2->name)), QStringLiteral("k2"));
    QCOMPARE(k2->start, epoch + 4000000000LL);
    QCOMPARE(k2->block[0], 32);

    QCOMPARE(t.memsets.size(), std::size_t(1));
    const auto& m = t.memsets[0];
    QCOMPARE(m.start, epoch + 2000000000LL);
    QCOMPARE(m.end, epoch + 2000001000LL);
    QCOMPARE(m.bytes, 4096LL);
    QCOMPARE(m.memKind, MemoryKind::Device); // nsys 2 = device
    QCOMPARE(QString::fromStdString(t.strings.at(m.name)), QStringLiteral("Memset (Device)"));

    // Flows: both new activities join their launch, each within its own process (correlation 5 exists
    // in the first process too, so the pid is what picks the right call).
    auto flow = [&](std::int32_t rank, std::int64_t corr) {
        return std::find_if(t.flows.begin(), t.flows.end(),
                            [&](const Flow& f) { return f.rank == rank && f.correlation == corr; });
    };
    QVERIFY(flow(0, 9001) != t.flows.end());
    QCOMPARE(flow(0, 9001)->cpuTs, epoch + 1999999000LL);
    QVERIFY(flow(1, 5) != t.flows.end());
    QCOMPARE(flow(1, 5)->cpuTs, epoch + 3999990000LL);
    QCOMPARE(flow(1, 5)->tid, 4243LL);

    std::map<std::string, const CpuRange*> byName;
    for (const auto& c : t.cpuRanges)
        byName[t.strings.at(c.name)] = &c;
    QVERIFY(byName.count("checkpoint"));
    QCOMPARE(byName["checkpoint"]->start, epoch + 2000002000LL);
    QCOMPARE(byName["checkpoint"]->end, byName["checkpoint"]->start); // a mark
    QVERIFY(byName.count("io"));
    QCOMPARE(byName["io"]->end - byName["io"]->start, 1000LL);
    QCOMPARE(byName["io"]->tid, 1230493LL);
    QVERIFY(!byName.count("open"));       // never ended
    QVERIFY(!byName.count("elsewhere"));  // process without GPU work
    QVERIFY(!byName.count("MPI Rank 1")); // thread names are not ranges
}

void TestNsysImporter::badFiles_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("truncated half") << "half"
                                    << "truncated";
    QTest::newRow("truncated to header") << "header"
                                         << "truncated";
    QTest::newRow("cut inside header") << "tiny"
                                       << "";
    QTest::newRow("other SQLite") << "other"
                                  << "not an Nsight Systems";
    QTest::newRow("corrupt pages") << "corrupt"
                                   << "";
}

void TestNsysImporter::badFiles() {
    QFETCH(QString, kind);
    QFETCH(QString, fragment);
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.sqlite");
    QFile src(kClover);
    QVERIFY(src.open(QIODevice::ReadOnly));
    QByteArray data = src.readAll();
    if (kind == "half") {
        data.truncate(data.size() / 2);
    } else if (kind == "header") {
        data.truncate(4096);
    } else if (kind == "tiny") {
        data.truncate(60);
    } else if (kind == "corrupt") {
        // Overwrite every page after the first 16 with garbage, keeping the size: SQLite must report
        // corruption when the importer reaches them (or the catalogue), never crash.
        for (qsizetype i = 16 * 4096; i < data.size(); ++i)
            data[i] = char((i * 7919) & 0xFF);
    }
    if (kind == "other") {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE notes(id INTEGER, body TEXT); INSERT INTO notes VALUES(1,'hello');",
                     nullptr, nullptr, nullptr);
        sqlite3_close(db);
    } else {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(data);
    }
    expectInputError(path, fragment);
}

void TestNsysImporter::badFileLeavesWorkspaceUnchanged() {
    QTemporaryDir dir;
    const QString wsPath = dir.filePath("ws.cnpdb");
    const QString bad = dir.filePath("cut.sqlite");
    {
        QFile src(kSaxpy);
        QVERIFY(src.open(QIODevice::ReadOnly));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(src.readAll().left(800 * 1024));
    }
    Workspace ws(wsPath.toStdString(), Workspace::Mode::CreateIfMissing);
    IngestRequest good;
    good.inputs = {kSaxpy.toStdString()};
    good.runName = "saxpy";
    ingest(ws, good);
    const qint64 kernelsBefore = queryInt(ws.db(), "SELECT count(*) FROM kernels");
    QCOMPARE(kernelsBefore, 5LL);
    IngestRequest req;
    req.inputs = {kClover.toStdString(), bad.toStdString()}; // a good file then a bad one: all or nothing
    req.runName = "broken";
    QVERIFY_THROWS_EXCEPTION(InputError, ingest(ws, req));
    QCOMPARE(ws.runs().size(), std::size_t(1));
    QCOMPARE(queryInt(ws.db(), "SELECT count(*) FROM kernels"), kernelsBefore);
    QCOMPARE(queryInt(ws.db(), "SELECT count(*) FROM api_calls"), 57LL);
}

void TestNsysImporter::viewsAreNotTables_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("error"); // "" = imports as the fixture does
    QTest::newRow("kernel table replaced by an endless view")
        << "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS " + kEndless +
               "SELECT x AS start, x AS end, 0 AS deviceId, 0 AS streamId FROM r;"
        << "'CUPTI_ACTIVITY_KIND_KERNEL' is a view or virtual table, not a table";
    QTest::newRow("StringIds as a view")
        << "ALTER TABLE StringIds RENAME TO s2; CREATE VIEW StringIds AS SELECT * FROM s2;"
        << "'StringIds' is a view";
    QTest::newRow("an unrelated endless view is never read")
        << "CREATE VIEW my_notes AS " + kEndless + "SELECT x FROM r;"
        << "";
}

void TestNsysImporter::viewsAreNotTables() {
    QFETCH(QString, sql);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = editedCopy(dir, kSaxpy, sql);
    if (error.isEmpty())
        QCOMPARE(importNsys(path).kernels.size(), importNsys(kSaxpy).kernels.size());
    else
        expectInputError(path, error);
}

// What Ctrl-C does during a query that never ends on its own (cnp ingest raises the flag on
// SIGINT/SIGTERM): the progress handler interrupts SQLite and the query throws Cancelled.
void TestNsysImporter::cancelInterruptsAnEndlessQuery() {
    nsys::NsysDatabase db(kSaxpy.toStdString());
    std::atomic<bool> cancel{false};
    db.setCancelFlag(&cancel);
    std::thread raiser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        cancel = true;
    });
    QElapsedTimer clock;
    clock.start();
    QVERIFY_THROWS_EXCEPTION(Cancelled, db.queryInt((kEndless + "SELECT count(*) FROM r").toStdString()));
    raiser.join();
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed()) + " ms"));
}

// Times near INT64_MAX / INT64_MIN, alone or pushed over by the session epoch, are skipped and counted;
// every stored event lies in the sane range with end >= start.
void TestNsysImporter::timesOutOfRangeAreSkipped() {
    QTemporaryDir dir;
    // A copy of the table's first row with new times (and no launch).
    const QString insert =
        "CREATE TEMP TABLE k AS SELECT * FROM %1 LIMIT 1; UPDATE k SET start = %2, end = %3, "
        "correlationId = 0; INSERT INTO %1 SELECT * FROM k; DROP TABLE k;";
    const QString kernel = "CUPTI_ACTIVITY_KIND_KERNEL", api = "CUPTI_ACTIVITY_KIND_RUNTIME";
    const QString sql =
        insert.arg(kernel, "9223372036854775000", "9223372036854775807") +
        insert.arg(kernel, "-9223372036854775807", "-9223372036854775000") +
        insert.arg(kernel, "4611686018427387000", "4611686018427387100") + // + epoch overflows
        insert.arg(api, "-9223372036854775807", "9223372036854775807");
    const QString path = editedCopy(dir, kSaxpy, sql);
    const TraceData clean = importNsys(kSaxpy);
    const TraceData t = importNsys(path);
    QCOMPARE(t.kernels.size(), clean.kernels.size());
    QCOMPARE(t.apiCalls.size(), clean.apiCalls.size());
    QCOMPARE(t.info.skipped.count, clean.info.skipped.count + 4);
    QVERIFY2(QString::fromStdString(t.info.skipped.firstReason).endsWith(": time out of range"),
             t.info.skipped.firstReason.c_str());
    for (const auto& k : t.kernels)
        QVERIFY(saneTime(k.start) && saneTime(k.end) && k.end >= k.start);
    for (const auto& a : t.apiCalls)
        QVERIFY(saneTime(a.start) && saneTime(a.end) && a.end >= a.start);
}

// Issue 33.7: kernels whose start or end is NULL, text, a blob or a real were read as 0: zero-length kernels
// at the session start, with no warning. They are skipped and counted, as Kineto's bad events are.
void TestNsysImporter::timesNotIntegersAreSkipped_data() {
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");
    QTest::addColumn<QString>(
        "reason"); // the first skip's reason, after "CUPTI_ACTIVITY_KIND_KERNEL row N: "
    QTest::newRow("NULL start") << "NULL"
                                << "end"
                                << "start is NULL, not an integer time";
    QTest::newRow("text end") << "start"
                              << "'soon'"
                              << "end is text, not an integer time";
    QTest::newRow("blob start") << "X'00'"
                                << "end"
                                << "start is a blob, not an integer time";
    QTest::newRow("real end") << "start"
                              << "2.5"
                              << "end is a real, not an integer time";
}

void TestNsysImporter::timesNotIntegersAreSkipped() {
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString kernel = "CUPTI_ACTIVITY_KIND_KERNEL";
    // The table copied without its NOT NULL constraints, as a hostile file may hold it.
    const QString sql =
        QString("CREATE TABLE c AS SELECT * FROM %1; DROP TABLE %1; ALTER TABLE c RENAME TO %1; "
                "UPDATE %1 SET start = %2, end = %3 WHERE rowid = (SELECT MIN(rowid) FROM %1)")
            .arg(kernel, start, end);
    const TraceData clean = importNsys(kSaxpy);
    const TraceData t = importNsys(editedCopy(dir, kSaxpy, sql));
    QCOMPARE(t.kernels.size(), clean.kernels.size() - 1);
    QCOMPARE(t.info.skipped.count, clean.info.skipped.count + 1);
    QVERIFY2(QString::fromStdString(t.info.skipped.firstReason).endsWith(": " + reason),
             t.info.skipped.firstReason.c_str());
    QVERIFY(QString::fromStdString(t.info.skipped.firstReason).startsWith(kernel + " row "));
}

QTEST_GUILESS_MAIN(TestNsysImporter)
#include "tst_nsysimporter.moc"
