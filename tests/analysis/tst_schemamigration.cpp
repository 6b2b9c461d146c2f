// Schema migration v1 -> v2 on a real v1 workspace (tests/data/workspace_v1.cnpdb.gz: written by the
// v1 code from the HTA fixtures amd_trace, trace_filter (2 ranks), triton_example and cpu_only, then
// VACUUMed). Expected values are read from the v1 file with plain SQL before the upgrade.
#include "TestPaths.h"
#include "store/Schema.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <fstream>
#include <map>

using namespace cnp;

namespace {

void gunzipTo(const std::string& from, const std::string& to) {
    gzFile in = gzopen(from.c_str(), "rb");
    QVERIFY2(in, from.c_str());
    std::ofstream out(to, std::ios::binary);
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(in, buf, sizeof buf)) > 0)
        out.write(buf, n);
    gzclose(in);
}

// Per (table, run): row count and a checksum over every column, from plain SQL (no Workspace code).
std::map<std::pair<std::string, std::int64_t>, std::pair<std::int64_t, std::int64_t>>
tableDigest(const std::string& file) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    std::map<std::pair<std::string, std::int64_t>, std::pair<std::int64_t, std::int64_t>> out;
    for (const auto& t : schema::eventTables()) {
        // Sum of every integer column weighted by its position: a change anywhere changes it.
        std::string cols;
        {
            Statement info(
                db, "SELECT name FROM pragma_table_info(?) WHERE name NOT IN ('id', 'run_id', 'value')");
            info.bind(1, t.name);
            int w = 1;
            while (info.step())
                cols +=
                    (cols.empty() ? "" : " + ") + std::to_string(w++) + " * (" + info.text(0) + " % 1000003)";
        }
        Statement st(db, "SELECT run_id, COUNT(*), SUM(" + cols + ") FROM " + std::string(t.name) +
                             " GROUP BY run_id");
        while (st.step())
            out[{std::string(t.name), st.i64(0)}] = {st.i64(1), st.i64(2)};
    }
    sqlite3_close(db);
    return out;
}

} // namespace

class TestSchemaMigration : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void upgradesV1_data() {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("read-write open") << false;
        QTest::newRow("read-only open (upgrades on its own connection)") << true;
    }
    void upgradesV1() {
        QFETCH(bool, readOnly);
        const std::string file = dir_.filePath(readOnly ? "ro.cnpdb" : "rw.cnpdb").toStdString();
        gunzipTo((testpaths::dataDir() + "/workspace_v1.cnpdb.gz").toStdString(), file);
        const auto before = tableDigest(file);
        QCOMPARE(before.at({"kernels", 2}).first, std::int64_t(2258));  // the 2-rank trace_filter run
        QCOMPARE(before.at({"cpu_ranges", 4}).first, std::int64_t(15)); // cpu_only

        Workspace ws(file, readOnly ? Workspace::Mode::ReadOnly : Workspace::Mode::ReadWrite);
        QCOMPARE(ws.schemaVersion(), 3);
        QCOMPARE(ws.runs().size(), std::size_t(4));
        QCOMPARE(tableDigest(file), before);
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '%_v1' OR name LIKE "
                                   "'%_by_time' OR name = 'flows_by_correlation'"),
                 std::int64_t(0));
        // Every run's rows are exactly its run_rows range, sorted by (rank, sort key).
        for (const auto& [key, countSum] : before) {
            const auto& [table, runId] = key;
            const IdRange r = ws.eventRows(RunId(runId), table);
            QCOMPARE(r.size(), countSum.first);
            QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM " + table + " WHERE id BETWEEN " +
                                           std::to_string(r.first) + " AND " + std::to_string(r.last) +
                                           " AND run_id = " + std::to_string(runId)),
                     countSum.first);
            const std::string sortKey(schema::findEventTable(table)->sortKey);
            QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM " + table + " a JOIN " + table +
                                           " b ON b.id = a.id + 1 WHERE a.id BETWEEN " +
                                           std::to_string(r.first) + " AND " + std::to_string(r.last) +
                                           " AND b.id <= " + std::to_string(r.last) +
                                           " AND (b.rank < a.rank OR (b.rank = a.rank AND b." + sortKey +
                                           " < a." + sortKey + "))"),
                     std::int64_t(0));
        }
        // The loaded run is complete: the 2-rank run's kernels come back in (rank, start) order.
        const auto t = ws.loadRun(RunId(2));
        QCOMPARE(t.kernels.size(), std::size_t(2258));
        QCOMPARE(t.ranks.size(), std::size_t(2));
        QVERIFY(std::is_sorted(t.kernels.begin(), t.kernels.end(),
                               [](const KernelEvent& a, const KernelEvent& b) {
                                   return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
                               }));
    }
};

QTEST_APPLESS_MAIN(TestSchemaMigration)
#include "tst_schemamigration.moc"
