// Schema migration v1 -> v2 on a real v1 workspace (tests/data/workspace_v1.cnpdb.gz: written by the
// v1 code from the HTA fixtures amd_trace, trace_filter (2 ranks), triton_example and cpu_only, then
// VACUUMed). Expected values are read from the v1 file with plain SQL before the upgrade. v3 -> v4 on a
// workspace written now and taken back to v3 (its two new columns dropped): the migration sums the same
// values from the stored gaps as ingest did.
#include "TestPaths.h"
#include "store/RowBuffer.h"
#include "store/Schema.h"
#include "store/Sqlite.h"
#include "store/SummaryRowReader.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/Workspace.h"
#include "tst_analysis_synthetic.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <array>
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

// (run, rank, step, launch_bound_idle_ns) of every summary_step row, then (run, rank, -2, ns) of every
// summary_rank row.
std::vector<std::array<std::int64_t, 4>> launchBoundColumns(sqlite3* db) {
    std::vector<std::array<std::int64_t, 4>> out;
    Statement st(db, "SELECT run_id, rank, step_index, launch_bound_idle_ns FROM summary_step UNION ALL "
                     "SELECT run_id, rank, -2, launch_bound_idle_ns FROM summary_rank ORDER BY 1, 2, 3");
    while (st.step())
        out.push_back({st.i64(0), st.i64(1), st.i64(2), st.i64(3)});
    return out;
}

// A v3 file kept its gaps as summary_gap rows (summary_gap_pack came later): the packs this cnp wrote are
// turned into such rows and the table dropped.
void storeGapsAsV3Rows(Workspace& ws) {
    struct NoStrings {};
    std::vector<std::int64_t> runs;
    for (Statement st(ws.db(), "SELECT id FROM runs"); st.step();)
        runs.push_back(st.i64(0));
    Transaction tx(ws.db());
    for (const std::int64_t id : runs) {
        RowBuffer rows(schema::insertSql(schema::kSummaryGap));
        for (const SummaryGapRow& g : SummaryRowReader(ws, RunId(id)).gaps(0)) {
            rows.bindRunId(1);
            schema::kSummaryGapRows.bindRow(rows, 1, g, NoStrings{});
            rows.exec();
        }
        rows.flush(ws, RunId(id));
    }
    execSql(ws.db(), "DROP TABLE summary_gap_pack");
    tx.commit();
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
        QCOMPARE(ws.schemaVersion(), 4);
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

    void upgradesV3() {
        const std::string file = dir_.filePath("v3.cnpdb").toStdString();
        std::vector<std::array<std::int64_t, 4>> written;
        {
            Workspace ws(file, Workspace::Mode::CreateIfMissing);
            IngestRequest req;
            req.inputs = {(testpaths::dataDir() + "/hta/trace_filter").toStdString()};
            req.runName = "real";
            ingest(ws, req);
            // One rank, two steps [0, 700) and [700, 910) us; launch-bound gaps of 490 + 190 us (step 1) and
            // 190 us (step 2), by hand (as tst_runsummaries::launchBoundIdlePerStep).
            testing::SyntheticTrace s("synthetic");
            s.range(0, 600'000, "ProfilerStep#1").range(600'000, 1'200'000, "ProfilerStep#2");
            s.kernel(0, 10'000, "a", 1, 0, 0).kernel(500'000, 510'000, "b", 2, 0, 490'000);
            s.kernel(700'000, 710'000, "c", 3, 0, 610'000).kernel(900'000, 910'000, "d", 4, 0, 800'000);
            testing::storeRun(ws, s.t);
            written = launchBoundColumns(ws.db());
            storeGapsAsV3Rows(ws);
            QVERIFY(queryInt(ws.db(), "SELECT count(*) FROM summary_gap") > 0);
            execSql(ws.db(), "ALTER TABLE summary_step DROP COLUMN launch_bound_idle_ns;"
                             "ALTER TABLE summary_rank DROP COLUMN launch_bound_idle_ns;"
                             "UPDATE meta SET value = '3' WHERE key = 'schema_version'");
        }
        QCOMPARE(written.size(), std::size_t(4 + 2 + 2 + 1)); // real: 4 steps, 2 ranks; synthetic: 2, 1
        QCOMPARE(written[6], (std::array<std::int64_t, 4>{2, 0, -2, 870'000}));
        QCOMPARE(written[7], (std::array<std::int64_t, 4>{2, 0, 1, 680'000}));
        QCOMPARE(written[8], (std::array<std::int64_t, 4>{2, 0, 2, 190'000}));
        Workspace ws(file, Workspace::Mode::ReadOnly); // upgrades on a connection of its own
        QCOMPARE(ws.schemaVersion(), 4);
        QCOMPARE(columnsOf(ws, "summary_step").size(), schema::kSummaryStep.columns.size());
        QCOMPARE(columnsOf(ws, "summary_rank").size(), schema::kSummaryRank.columns.size());
        QCOMPARE(launchBoundColumns(ws.db()), written);
    }
};

QTEST_APPLESS_MAIN(TestSchemaMigration)
#include "tst_schemamigration.moc"
