// A workspace is untrusted data: crafted workspaces, each built here with the plain SQLite C API, must
// neither run their own SQL, nor crash, hang or touch another file when opened (docs/errors.md).
#include "TestPaths.h"
#include "TestTraces.h"

#include "core/CategoryOrder.h"
#include "core/InputError.h"
#include "core/Interrupt.h"
#include "ingest/IngestPipeline.h"
#include "store/RunEventReader.h"
#include "store/RunSnapshotReader.h"
#include "store/Schema.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace cnp;

namespace {

// Runs `sql` on `file` through a plain connection (no workspace code, no defences).
void rawExec(const std::string& file, const std::string& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    const std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, msg.c_str());
}

std::int64_t rawCount(const std::string& file, const std::string& table) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    std::int64_t n = -1;
    if (sqlite3_prepare_v2(db, ("SELECT COUNT(*) FROM " + table).c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

// A v2 workspace with the runs `names` (each tinyTrace: 2 kernels).
void makeWorkspace(const std::string& file, const std::vector<std::string>& names) {
    Workspace ws(file, Workspace::Mode::CreateIfMissing);
    for (const auto& n : names) {
        Transaction tx(ws.db());
        ws.insertRun(cnp::testing::tinyTrace(n));
        tx.commit();
    }
}

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

// One integer from `sql` through a plain connection; -1 when there is no row.
std::int64_t rawValue(const std::string& file, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    std::int64_t v = -1;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

std::string openError(const std::string& file, Workspace::Mode mode) {
    try {
        Workspace ws(file, mode);
        ws.runs();
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestHostileWorkspace : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    // Defect 1: v1 -> v2 copied by column names read from the file, pasted into SQL. A renamed column
    // carried an INSERT's end, then ATTACH of another workspace and DELETE of its runs.
    void migrationRunsNoSqlFromTheFile_data() {
        QTest::addColumn<QString>("alter");
        QTest::addColumn<bool>("upgrades");
        const QString evil =
            "category_id) SELECT run_id, rank, device, stream, start_ns, end_ns, correlation, "
            "grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_smem, "
            "dynamic_smem, name_id, 0 FROM kernels_v1; ATTACH DATABASE 'VICTIM' AS v; "
            "DELETE FROM v.runs; --";
        QTest::newRow("column renamed to SQL (upgrade fails: a v1 column is missing)")
            << "ALTER TABLE kernels RENAME COLUMN category_id TO \"" + evil + "\"" << false;
        QTest::newRow("extra column named SQL (ignored: the upgrade copies the v1 columns)")
            << "ALTER TABLE kernels ADD COLUMN \"" + evil + "\"" << true;
    }
    void migrationRunsNoSqlFromTheFile() {
        QFETCH(QString, alter);
        QFETCH(bool, upgrades);
        const std::string victim = path("victim.cnpdb"), crafted = path("crafted-v1.cnpdb");
        std::filesystem::remove(victim);
        makeWorkspace(victim, {"a", "b"});
        gunzipTo((testpaths::dataDir() + "/workspace_v1.cnpdb.gz").toStdString(), crafted);
        rawExec(crafted, alter.replace("VICTIM", QString::fromStdString(victim)).toStdString());

        const std::string error = openError(crafted, Workspace::Mode::ReadWrite);
        QCOMPARE(rawCount(victim, "runs"), std::int64_t(2));
        QCOMPARE(rawCount(victim, "kernels"), std::int64_t(4));
        if (upgrades) {
            QCOMPARE(QString::fromStdString(error), QString());
            QCOMPARE(Workspace(crafted, Workspace::Mode::ReadOnly).runs().size(), std::size_t(4));
        } else {
            QVERIFY2(error.rfind(crafted + ": ", 0) == 0, error.c_str());
            QVERIFY2(error.find("no such column: category_id") != std::string::npos, error.c_str());
            QCOMPARE(rawCount(crafted, "meta WHERE key = 'schema_version' AND value = '1'"), std::int64_t(1));
        }
    }

    // The migration's fixed column lists are the tables' columns (all but id), in table order.
    void eventTableColumnsMatchTheSchema() {
        const std::string file = path("columns.cnpdb");
        makeWorkspace(file, {});
        Workspace ws(file, Workspace::Mode::ReadOnly);
        for (const auto& t : schema::eventTables()) {
            std::string columns;
            Statement info(ws.db(), "SELECT name FROM pragma_table_info(?) WHERE name != 'id' ORDER BY cid");
            info.bind(1, t.name);
            while (info.step())
                columns += (columns.empty() ? "" : ", ") + info.text(0);
            QCOMPARE(QString::fromStdString(columns),
                     QString::fromUtf8(t.columns.data(), int(t.columns.size())));
        }
    }

    // Defect 2: objects the schema does not define are refused on every open, naming the object.
    void foreignObjectsRefused_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("expected");
        QTest::newRow("trigger deleting runs on ingest")
            << "CREATE TRIGGER wipe AFTER INSERT ON runs BEGIN DELETE FROM runs; END"
            << "holds a trigger 'wipe'";
        QTest::newRow("view replacing a table with an endless recursive CTE")
            << "DROP TABLE kernels; CREATE VIEW kernels AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT "
               "x + 1 FROM c) SELECT x AS id FROM c"
            << "holds a view 'kernels'";
        QTest::newRow("harmless-looking view") << "CREATE VIEW recent AS SELECT * FROM runs"
                                               << "holds a view 'recent'";
        QTest::newRow("virtual table") << "CREATE VIRTUAL TABLE notes USING fts5(text)"
                                       << "holds a virtual table 'notes'";
        QTest::newRow("control characters in the name are not echoed")
            << "CREATE TRIGGER \"t\x1b[2J\" AFTER INSERT ON runs BEGIN SELECT 1; END"
            << "holds a trigger 't?[2J'";
        // Issue 33.5: generated columns compute on every write (ingest and edit took 20 s and 0.9 GB per
        // column of `runs`); stored (hidden 3) and virtual (hidden 2) ones are refused naming the table.
        QTest::newRow("virtual generated column in runs")
            << "ALTER TABLE runs ADD COLUMN slow TEXT GENERATED ALWAYS AS (name || name) VIRTUAL"
            << "holds a generated column 'slow' in table 'runs'";
        QTest::newRow("generated column in an unknown table")
            << "CREATE TABLE extra(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) STORED)"
            << "holds a generated column 'b' in table 'extra'";
    }
    void foreignObjectsRefused() {
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        const std::string file = path("foreign.cnpdb");
        std::filesystem::remove(file);
        makeWorkspace(file, {"a"});
        rawExec(file, sql.toStdString());
        for (auto mode : {Workspace::Mode::ReadOnly, Workspace::Mode::ReadWrite}) {
            const std::string error = openError(file, mode);
            QVERIFY2(error.rfind(file + ": ", 0) == 0, error.c_str());
            QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        }
        QCOMPARE(rawCount(file, "runs"), std::int64_t(1));
    }

    void unknownTablesAndIndexesAreIgnored() {
        const std::string file = path("extra.cnpdb");
        makeWorkspace(file, {"a"});
        rawExec(file, "CREATE TABLE notes(text); CREATE INDEX kernels_by_name ON kernels(name_id)");
        QCOMPARE(Workspace(file, Workspace::Mode::ReadOnly).runs().size(), std::size_t(1));
    }

    // Defect 2: JSON columns nested a million levels deep read as empty instead of overflowing the stack.
    void deeplyNestedJsonColumnsReadAsEmpty() {
        const std::string file = path("nested.cnpdb");
        makeWorkspace(file, {"a"});
        const std::string deepArray = std::string(1000000, '[') + std::string(1000000, ']');
        std::string deepObject;
        for (int i = 0; i < 200000; ++i)
            deepObject += "{\"k\":";
        deepObject += "1" + std::string(200000, '}');
        rawExec(file, "UPDATE runs SET gpu_models = '" + deepArray + "', source_files = '" + deepArray +
                          "', env = '" + deepObject + "'; UPDATE ranks SET gpu_names = '" + deepArray + "'");
        Workspace ws(file, Workspace::Mode::ReadOnly);
        const auto runs = ws.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY(runs[0].info.gpuModels.empty());
        QVERIFY(runs[0].info.env.empty());
        const TraceData t = ws.loadRun(runs[0].id);
        QCOMPARE(t.ranks.size(), std::size_t(1));
        QVERIFY(t.ranks[0].gpuNames.empty());
        QCOMPARE(t.kernels.size(), std::size_t(2));
    }

    void schemaVersionNotANumber() {
        const std::string file = path("version.cnpdb");
        makeWorkspace(file, {"a"});
        rawExec(file, "UPDATE meta SET value = '2; DROP TABLE runs' WHERE key = 'schema_version'");
        QCOMPARE(QString::fromStdString(openError(file, Workspace::Mode::ReadOnly)),
                 QString::fromStdString(file + ": not a readable workspace: meta schema_version is '2; DROP "
                                               "TABLE runs', not a version number"));
    }

    // Defect 2: SQLite's defences are on for every connection.
    void connectionDefences_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ATTACH") << "ATTACH DATABASE ':memory:' AS other"
                                << "too many attached databases";
        QTest::newRow("writable_schema (defensive mode)")
            << "PRAGMA writable_schema=ON; DELETE FROM sqlite_schema"
            << "table sqlite_master may not be modified";
    }
    void connectionDefences() {
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        const std::string file = path("defences.cnpdb");
        std::filesystem::remove(file);
        makeWorkspace(file, {"a"});
        Workspace ws(file, Workspace::Mode::ReadWrite);
        try {
            execSql(ws.db(), sql.toStdString());
            QFAIL("accepted");
        } catch (const SqliteError& e) {
            QVERIFY2(std::string(e.what()).find(expected.toStdString()) != std::string::npos, e.what());
        }
    }

    // Defect 2: no query computes longer than its budget, and the interrupt flag stops any query.
    void queryBudgetInterrupts() {
        const std::string file = path("budget.cnpdb");
        makeWorkspace(file, {"a"});
        Workspace ws(file, Workspace::Mode::ReadOnly);
        ws.setQueryBudget(std::chrono::milliseconds(200));
        const auto t0 = std::chrono::steady_clock::now();
        try {
            queryInt(ws.db(),
                     "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) "
                     "FROM c");
            QFAIL("an endless query returned");
        } catch (const SqliteError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.rfind(file + ": a query ran longer than its time budget", 0) == 0, e.what());
        }
        const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(seconds < 5, std::to_string(seconds).c_str());
        // Long work that returns rows is not bounded: the budget is per call.
        Statement rows(ws.db(),
                       "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) "
                       "SELECT x FROM c");
        std::int64_t n = 0;
        while (rows.step())
            ++n;
        QCOMPARE(n, std::int64_t(3000000));
    }

    void interruptFlagCancelsAQuery() {
        const std::string file = path("interrupt.cnpdb");
        makeWorkspace(file, {"a"});
        Workspace ws(file, Workspace::Mode::ReadOnly);
        std::thread ctrlC([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            interruptFlag().store(true);
        });
        bool cancelled = false;
        try {
            queryInt(ws.db(),
                     "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) "
                     "FROM c");
        } catch (const Cancelled&) {
            cancelled = true;
        }
        ctrlC.join();
        interruptFlag().store(false);
        QVERIFY(cancelled);
        QCOMPARE(ws.runs().size(), std::size_t(1));
    }

    // removeRun deletes from every table with a run_id column; a table name is quoted, not pasted.
    void hostileTableNameQuoted() {
        const std::string file = path("names.cnpdb");
        makeWorkspace(file, {"a", "b"});
        rawExec(file,
                "CREATE TABLE \"x\"\" WHERE 1 OR \"\"\"(run_id INTEGER); INSERT INTO \"x\"\" WHERE 1 OR "
                "\"\"\" VALUES (1), (2)");
        Workspace(file, Workspace::Mode::ReadWrite).removeRun("a");
        QCOMPARE(rawCount(file, "runs"), std::int64_t(1));
        QCOMPARE(rawCount(file, "\"x\"\" WHERE 1 OR \"\"\" WHERE run_id = 2"), std::int64_t(1));
        QCOMPARE(rawCount(file, "\"x\"\" WHERE 1 OR \"\"\""), std::int64_t(1));
    }

    // A long read (a report) sees the workspace as it was when it began, whatever is removed meanwhile.
    void readSnapshotSurvivesARemoval() {
        const std::string file = path("snapshot.cnpdb");
        makeWorkspace(file, {"a", "b"});
        Workspace reader(file, Workspace::Mode::ReadOnly);
        RunId idB;
        {
            const ReadTransaction snapshot(reader.db());
            idB = reader.runOrThrow("b").id;
            Workspace(file, Workspace::Mode::ReadWrite).removeRun("b");
            QCOMPARE(reader.runs().size(), std::size_t(2));
            QCOMPARE(reader.loadRun(idB).kernels.size(), std::size_t(2));
        }
        QCOMPARE(reader.runs().size(), std::size_t(1));
    }

    // Issue 33.4: run_rows ranges were believed, so `reclassify --reset` rewrote run a with another
    // run's events and export mixed runs. Runs a, b, c (2 kernels each); $A is a's id, $AF/$AL the first
    // and last id of a's kernels (the same for b and c). Every read of a's events is refused, naming the
    // workspace, the table, the run, its stored range and the cause.
    void runRowsValidated_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("range"); // the stored range the message quotes
        QTest::addColumn<QString>("cause");
        const QString set = "UPDATE run_rows SET %1 WHERE run_id = $A AND table_name = 'kernels'";
        QTest::newRow("another run's range") << set.arg("first_id = $BF, last_id = $BL") << "$BF to $BL"
                                             << "hold id $BF, a row of another run";
        QTest::newRow("stretched over another run") << set.arg("last_id = $BL") << "$AF to $BL"
                                                    << "hold id $BL, a row of another run";
        QTest::newRow("reversed") << set.arg("first_id = $AL, last_id = $AF") << "$AL to $AF"
                                  << "are an empty or reversed range";
        QTest::newRow("beyond the table")
            << set.arg("last_id = 9223372036854775807") << "$AF to 9223372036854775807"
            << "end at id 9223372036854775807, which is not in the table";
        // Both ends are a's rows (c's were relabelled a), but b's rows lie between them.
        QTest::newRow("around another run")
            << "UPDATE kernels SET run_id = $A WHERE run_id = $C; " + set.arg("last_id = $CL") << "$AF to $CL"
            << "overlap the range of run id $B (ids $BF to $BL)";
    }
    void runRowsValidated() {
        QFETCH(QString, sql);
        QFETCH(QString, range);
        QFETCH(QString, cause);
        const std::string file = path("ranges.cnpdb");
        std::filesystem::remove(file);
        makeWorkspace(file, {"a", "b", "c"});
        auto substitute = [&](QString text) {
            for (const char* run : {"c", "b", "a"}) { // c before a: "$C" is no prefix of another key
                const QString r = QString(run).toUpper();
                const std::string id = "(SELECT id FROM runs WHERE name = '" + std::string(run) + "')";
                const std::string of = " FROM run_rows WHERE table_name = 'kernels' AND run_id = " + id;
                text.replace("$" + r + "F", QString::number(rawValue(file, "SELECT first_id" + of)));
                text.replace("$" + r + "L", QString::number(rawValue(file, "SELECT last_id" + of)));
                text.replace("$" + r, QString::number(rawValue(file, id.substr(1, id.size() - 2))));
            }
            return text;
        };
        const QString expected = QString::fromStdString(file) +
                                 ": run_rows: the kernels rows of run 'a' (ids " + substitute(range) + ") " +
                                 substitute(cause);
        rawExec(file, substitute(sql).toStdString());
        const Workspace ws(file, Workspace::Mode::ReadOnly);
        const RunRecord a = ws.runOrThrow("a");
        for (int read = 0; read < 2; ++read) {
            try {
                if (read == 0)
                    ws.eventRows(a.id, "kernels");
                else
                    ws.loadRun(a.id);
                QFAIL("the range was believed");
            } catch (const InputError& e) {
                QCOMPARE(QString(e.what()), expected);
            }
        }
    }

    // Issue 33.4: extreme values in event and summary tables were trusted: UBSan aborted in IdRange,
    // Intervals, RunSummaryReader, Ablation, RunSummaries and the exporters, and a release build printed
    // "GPU window -1 ns, kernel time 9223372037 s". Every value is within its stated range when read
    // (store/StoredValueCheck.h), or the read is refused naming the workspace, table, run, rank and value.
    // Run a is tinyTrace (kernels [0, 100) and [150, 250), a memcpy [240, 300) of 4096 bytes) with its
    // summaries; `read` is what reads the table: "events" (loadRun: export, reclassify) or "summaries"
    // (the snapshot of stats, ablation, diff, report).
    void storedValuesBounded_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("read");
        QTest::addColumn<QString>("cause");
        const QString max = "4611686018427387903";
        const QString times = " is outside the range of stored times (-" + max + " to " + max + " ns)";
        QTest::newRow("kernel end INT64_MAX")
            << "UPDATE kernels SET end_ns = 9223372036854775807 WHERE start_ns = 150"
            << "events"
            << "kernels: a row of run 'a' (rank 0): end_ns 9223372036854775807" + times;
        QTest::newRow("kernel start INT64_MIN")
            << "UPDATE kernels SET start_ns = -9223372036854775808 WHERE start_ns = 0"
            << "events"
            << "kernels: a row of run 'a' (rank 0): start_ns -9223372036854775808" + times;
        QTest::newRow("kernel ends before it starts")
            << "UPDATE kernels SET end_ns = -5 WHERE start_ns = 0"
            << "events"
            << "kernels: a row of run 'a' (rank 0): end_ns -5 is before start_ns 0";
        QTest::newRow("negative copy size")
            << "UPDATE memcpys SET bytes = -1"
            << "events"
            << "memcpys: a row of run 'a' (rank 0): bytes -1 is outside 0 to " + max;
        QTest::newRow("flow time INT64_MIN")
            << "UPDATE flows SET cpu_ns = -9223372036854775808"
            << "events"
            << "flows: a row of run 'a' (rank 0): cpu_ns -9223372036854775808" + times;
        QTest::newRow("kernel time INT64_MAX")
            << "UPDATE summary_rank SET kernel_time_ns = 9223372036854775807"
            << "summaries"
            << "summary_rank: a row of run 'a' (rank 0): kernel_time_ns 9223372036854775807 is outside 0 "
               "to " +
                   max + " ns";
        QTest::newRow("GPU window -1 ns")
            << "UPDATE summary_rank SET window_end_ns = window_start_ns - 1"
            << "summaries"
            << "summary_rank: a row of run 'a' (rank 0): window_end_ns -1 is before window_start_ns 0";
        QTest::newRow("negative compute")
            << "UPDATE summary_rank SET compute_ns = -1"
            << "summaries"
            << "summary_rank: a row of run 'a' (rank 0): compute_ns -1 is outside 0 to " + max + " ns";
        QTest::newRow("exclusive INT64_MIN")
            << "UPDATE summary_exclusive SET exclusive_ns = -9223372036854775808"
            << "summaries"
            << "summary_exclusive: a row of run 'a' (rank 0): exclusive_ns -9223372036854775808 is outside 0 "
               "to " +
                   max + " ns";
        QTest::newRow("kernel total INT64_MAX")
            << "UPDATE summary_kernel SET total_ns = 9223372036854775807"
            << "summaries"
            << "summary_kernel: a row of run 'a' (all ranks): total_ns 9223372036854775807 is outside 0 to " +
                   max + " ns";
        QTest::newRow("kernel mean 1e300")
            << "UPDATE summary_kernel SET mean_ns = 1e300"
            << "summaries"
            << "summary_kernel: a row of run 'a' (all ranks): mean_ns 1.0000000000000001e+300 is "
               "outside 0 to " +
                   max + " ns";
        QTest::newRow("gap end INT64_MAX (a run summarised before summary_gap_pack)")
            << "DELETE FROM summary_gap_pack; INSERT INTO summary_gap(run_id, rank, step_index, start_ns, "
               "end_ns, cpu_state, launches, "
               "sync_ns, data_wait_ns, next_name_id, next_launch_ns) SELECT id, 0, -1, 100, "
               "9223372036854775807, 'idle', 0, 0, 0, 0, -1 FROM runs"
            << "summaries"
            << "summary_gap: a row of run 'a' (rank 0): end_ns 9223372036854775807" + times;
        QTest::newRow("gap pack of two bytes") << "INSERT INTO summary_gap_pack(run_id, rank, format, "
                                                  "gap_count, pack) SELECT id, 5, 1, 1, x'0102' "
                                                  "FROM runs"
                                               << "summaries"
                                               << "summary_gap_pack (rank 5): shorter than its 8-byte length";
        QTest::newRow("gap pack of another format")
            << "INSERT INTO summary_gap_pack(run_id, rank, format, gap_count, pack) SELECT id, 5, 9, 1, "
               "x'0102' "
               "FROM runs"
            << "summaries"
            << "summary_gap_pack (rank 5): format 9 (this cnp reads format 1)";
    }
    void storedValuesBounded() {
        QFETCH(QString, sql);
        QFETCH(QString, read);
        QFETCH(QString, cause);
        const std::string file = path("values.cnpdb");
        std::filesystem::remove(file);
        {
            Workspace ws(file, Workspace::Mode::CreateIfMissing);
            addTrace(ws, cnp::testing::tinyTrace("a"));
        }
        rawExec(file, sql.toStdString());
        const Workspace ws(file, Workspace::Mode::ReadOnly);
        const RunRecord a = ws.runOrThrow("a");
        try {
            if (read == "events")
                ws.loadRun(a.id);
            else
                readRunSnapshot(ws, a, CategoryOrder(), RunSnapshotParts::all());
            QFAIL("the value was believed");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()), QString::fromStdString(file) + ": " + cause);
        }
        // The workbench's timeline reads event times through RunEventReader: the same refusal.
        if (cause.startsWith("kernels:")) {
            try {
                RunEventReader(ws, a.id).forEachGpuSpan(EventKind::Kernel,
                                                        [](const RunEventReader::GpuSpan&) {});
                QFAIL("the timeline believed the value");
            } catch (const InputError& e) {
                QCOMPARE(QString(e.what()), QString::fromStdString(file) + ": " + cause);
            }
        }
    }

    // Issue 33.6: the v2 -> v3 upgrade created run_attributes with CREATE TABLE IF NOT EXISTS and stamped the
    // new version over a malformed table the v2 file already held. The table's shape is checked first; a
    // malformed one fails the upgrade, which rolls back: the version stays 2 and nothing changes.
    void upgradeChecksRunAttributes_data() {
        QTest::addColumn<QString>("table"); // the run_attributes the "v2" file holds
        QTest::addColumn<QString>("problem");
        QTest::newRow("other columns")
            << "CREATE TABLE run_attributes(run_id INTEGER, note TEXT)"
            << "table run_attributes has columns (run_id, note) and primary key () "
               "instead of (run_id, key, value) and (run_id, key)";
        QTest::newRow("no primary key")
            << "CREATE TABLE run_attributes(run_id INTEGER, key TEXT, value TEXT)"
            << "table run_attributes has columns (run_id, key, value) and primary key () instead of (run_id, "
               "key, value) and (run_id, key)";
        QTest::newRow("well formed") << "CREATE TABLE run_attributes(run_id INTEGER NOT NULL, key TEXT NOT "
                                        "NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, key))"
                                     << "";
    }
    void upgradeChecksRunAttributes() {
        QFETCH(QString, table);
        QFETCH(QString, problem);
        const std::string file = path("v2.cnpdb");
        std::filesystem::remove(file);
        makeWorkspace(file, {"a"});
        rawExec(file, "DROP TABLE run_attributes; " + table.toStdString() +
                          "; UPDATE meta SET value = '2' WHERE key = 'schema_version'");
        const std::string error = openError(file, Workspace::Mode::ReadWrite);
        if (problem.isEmpty()) {
            QCOMPARE(QString::fromStdString(error), QString());
            QCOMPARE(rawValue(file, "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'schema_version'"),
                     std::int64_t(Workspace::kSchemaVersion));
            return;
        }
        QCOMPARE(QString::fromStdString(error), QString::fromStdString(file) +
                                                    ": cannot upgrade workspace schema version 2 to 4: " +
                                                    problem + "; nothing was changed");
        QCOMPARE(rawValue(file, "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'schema_version'"),
                 std::int64_t(2));
        QVERIFY(
            QString::fromStdString(openError(file, Workspace::Mode::ReadOnly))
                .endsWith("needs a one-time upgrade, which failed: cannot upgrade workspace schema version 2 "
                          "to 4: " +
                          problem + "; nothing was changed"));
    }

    // The ranges as ingest stores them pass (tinyTrace: 2 kernels and 1 memcpy per run).
    void honestRunRowsPass() {
        const std::string file = path("honest-ranges.cnpdb");
        std::filesystem::remove(file);
        makeWorkspace(file, {"a", "b"});
        const Workspace ws(file, Workspace::Mode::ReadOnly);
        for (const auto& r : ws.runs()) {
            QCOMPARE(ws.eventRows(r.id, "kernels").size(), std::int64_t(2));
            QCOMPARE(ws.eventRows(r.id, "memcpys").size(), std::int64_t(1));
            QCOMPARE(ws.loadRun(r.id).kernels.size(), std::size_t(2));
        }
    }
};

QTEST_GUILESS_MAIN(TestHostileWorkspace)
#include "tst_hostileworkspace.moc"
