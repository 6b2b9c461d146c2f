// The table descriptions (store/Tables.h) generate the schema v4 as released: the DDL they generate
// creates the same tables, columns (name, type, NOT NULL, default, primary key, order) and indexes as the
// frozen hand-written DDL in tests/data/schema_v4.sql (plus the additive, optional tables added to v4 since,
// tests/data/schema_v4_additions.sql), compared through SQLite's own pragmas. The SQL
// text generators are checked against statements written out by hand.
#include "TestPaths.h"
#include "core/EventKind.h"
#include "store/Schema.h"
#include "store/Sqlite.h"
#include "store/TableSchema.h"
#include "store/Tables.h"

#include <QtTest>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace cnp;

namespace {

struct Db {
    sqlite3* db = nullptr;
    explicit Db(const std::string& sql) {
        sqlite3_open(":memory:", &db);
        execSql(db, sql);
    }
    ~Db() { sqlite3_close(db); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
};

std::string frozenSql() {
    std::stringstream ss;
    for (const char* file : {"/schema_v4.sql", "/schema_v4_additions.sql"}) {
        std::ifstream in((testpaths::dataDir() + file).toStdString());
        ss << in.rdbuf();
    }
    return ss.str();
}

std::string generatedSql() {
    return std::string(schema::createTablesSql()) + schema::createSummaryTablesSql() +
           schema::createTimelineOverviewSql() + schema::createCollectiveArgsSql() +
           schema::createShardPartSql();
}

// Every row of `sql` (bound to `arg`), each row's columns joined by '|'.
QStringList rows(sqlite3* db, const std::string& sql, const std::string& arg = {}) {
    Statement st(db, sql);
    if (!arg.empty())
        st.bind(1, arg);
    QStringList out;
    const int n = sqlite3_column_count(st.handle());
    while (st.step()) {
        QStringList cells;
        for (int c = 0; c < n; ++c)
            cells << (st.isNull(c) ? QString("NULL") : QString::fromStdString(st.text(c)));
        out << cells.join('|');
    }
    return out;
}

QStringList tableNames(sqlite3* db) {
    return rows(db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
}

} // namespace

class TestTableSchema : public QObject {
    Q_OBJECT

private slots:
    void sameTables() {
        const Db frozen(frozenSql()), generated(generatedSql());
        const QStringList names = tableNames(frozen.db);
        QCOMPARE(names.size(), 26); // 15 workspace + 8 summary tables + timeline_overview + collective_args
                                    // + shard_part
        QCOMPARE(tableNames(generated.db), names);
        QStringList described;
        for (const auto& t : schema::allTables())
            described << QString::fromUtf8(t.name.data(), static_cast<int>(t.name.size()));
        described.sort();
        QCOMPARE(described, names);
    }

    void sameColumns_data() {
        QTest::addColumn<QString>("table");
        const Db frozen(frozenSql());
        for (const auto& n : tableNames(frozen.db))
            QTest::newRow(n.toUtf8().constData()) << n;
    }
    void sameColumns() {
        QFETCH(QString, table);
        const Db frozen(frozenSql()), generated(generatedSql());
        const std::string sql =
            "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid";
        const QStringList expected = rows(frozen.db, sql, table.toStdString());
        QVERIFY(!expected.isEmpty());
        QCOMPARE(rows(generated.db, sql, table.toStdString()), expected);
    }

    void sameIndexes_data() { sameColumns_data(); }
    void sameIndexes() {
        QFETCH(QString, table);
        const Db frozen(frozenSql()), generated(generatedSql());
        auto indexes = [&](sqlite3* db) {
            QStringList out;
            for (const auto& i : rows(db,
                                      "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?) "
                                      "ORDER BY name",
                                      table.toStdString())) {
                const std::string name = i.split('|').front().toStdString();
                out << i + " on " +
                           rows(db, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", name).join(",");
            }
            return out;
        };
        QCOMPARE(indexes(generated.db), indexes(frozen.db));
    }

    // The v1 -> v2 migration copies these columns: they must stay the v1 tables' columns.
    void eventTableColumnsAreTheV1Columns_data() {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("sortKey");
        QTest::addColumn<QString>("columns");
        QTest::newRow("kernels")
            << "kernels"
            << "start_ns"
            << "run_id, rank, device, stream, start_ns, end_ns, correlation, grid_x, grid_y, "
               "grid_z, block_x, block_y, block_z, registers, static_smem, dynamic_smem, "
               "name_id, category_id";
        QTest::newRow("memcpys") << "memcpys"
                                 << "start_ns"
                                 << "run_id, rank, device, stream, start_ns, end_ns, correlation, bytes, "
                                    "copy_kind, src_kind, dst_kind, name_id";
        QTest::newRow("memsets")
            << "memsets"
            << "start_ns"
            << "run_id, rank, device, stream, start_ns, end_ns, correlation, bytes, value, "
               "mem_kind, name_id";
        QTest::newRow("api_calls") << "api_calls"
                                   << "start_ns"
                                   << "run_id, rank, pid, tid, start_ns, end_ns, correlation, kind, name_id";
        QTest::newRow("cpu_ranges") << "cpu_ranges"
                                    << "start_ns"
                                    << "run_id, rank, pid, tid, start_ns, end_ns, depth, kind, correlation, "
                                       "name_id, domain_id, color";
        QTest::newRow("gpu_annotations") << "gpu_annotations"
                                         << "start_ns"
                                         << "run_id, rank, device, stream, start_ns, end_ns, name_id";
        QTest::newRow("flows") << "flows"
                               << "correlation"
                               << "run_id, rank, correlation, cpu_ns, tid, gpu_ns, stream";
        QTest::newRow("counters") << "counters"
                                  << "ts_ns"
                                  << "run_id, rank, device, ts_ns, value, name_id";
    }
    void eventTableColumnsAreTheV1Columns() {
        QFETCH(QString, table);
        QFETCH(QString, sortKey);
        QFETCH(QString, columns);
        const auto* t = schema::findEventTable(table.toStdString());
        QVERIFY(t);
        QCOMPARE(QString::fromUtf8(t->sortKey.data(), static_cast<int>(t->sortKey.size())), sortKey);
        QCOMPARE(QString::fromUtf8(t->columns.data(), static_cast<int>(t->columns.size())), columns);
    }

    void generatedStatements() {
        QCOMPARE(QString::fromStdString(schema::insertSql(schema::kSummaryExclusive)),
                 QString("INSERT INTO summary_exclusive(run_id, rank, step_index, category_id, exclusive_ns) "
                         "VALUES(?,?,?,?,?)"));
        QCOMPARE(QString::fromStdString(schema::insertSql(schema::kRunAttributes, 1)),
                 QString("INSERT INTO run_attributes(key, value) VALUES(?,?)"));
        QCOMPARE(QString::fromStdString(schema::columnList(schema::kSummarySync, 3, 2, "y.")),
                 QString("y.name_id, y.start_ns"));
        QCOMPARE(QString::fromStdString(schema::columnList(schema::kSummarySync, 5)),
                 QString("end_ns, dtoh_bytes"));
        QCOMPARE(
            QString::fromStdString(schema::createTableSql(schema::kRunAttributes)),
            QString("CREATE TABLE IF NOT EXISTS run_attributes(run_id INTEGER NOT NULL, key TEXT NOT NULL, "
                    "value TEXT NOT NULL, PRIMARY KEY(run_id, key));\n"));
        QCOMPARE(QString::fromStdString(schema::columnDefinition(schema::kSummaryRank, "orphan_ns")),
                 QString("orphan_ns INTEGER"));
        QCOMPARE(QString::fromStdString(schema::kFlows.valueColumns()),
                 QString("rank, correlation, cpu_ns, tid, gpu_ns, stream"));
        QCOMPARE(schema::kKernels.kValueColumns, 17);
        QCOMPARE(schema::kRanks.kValueColumns, 9);
        QCOMPARE(schema::laterSummaryRankColumns().size(), std::size_t(13));
        QCOMPARE(QString::fromUtf8(schema::laterSummaryRankColumns().front().name.data()).left(18),
                 QString("graph_launch_count"));
    }

    // Units are documentation, but a wrong one misleads: every *_ns column is in ns and nothing else is.
    void unitsFollowTheNames() {
        for (const auto& t : schema::allTables())
            for (const auto& c : t.columns) {
                const bool nsName = c.name.ends_with("_ns");
                QVERIFY2(nsName == (c.unit == "ns"),
                         (std::string(t.name) + "." + std::string(c.name)).c_str());
            }
    }

    // Each kind of event names the table written out here, and the span tables are exactly the tables
    // of the kinds with a [start_ns, end_ns) (every kind but the step).
    void eachEventKindHasItsTable_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("table");
        const std::pair<EventKind, const char*> expected[] = {
            {EventKind::Kernel, "kernels"},      {EventKind::Memcpy, "memcpys"},
            {EventKind::Memset, "memsets"},      {EventKind::ApiCall, "api_calls"},
            {EventKind::CpuRange, "cpu_ranges"}, {EventKind::GpuAnnotation, "gpu_annotations"},
            {EventKind::Step, "steps"}};
        QCOMPARE(std::size(expected), kEventKinds.size());
        for (const auto& [kind, table] : expected)
            QTest::newRow(toString(kind)) << int(kind) << QString(table);
    }
    void eachEventKindHasItsTable() {
        QFETCH(int, kind);
        QFETCH(QString, table);
        const std::string_view name = schema::eventTableOf(static_cast<EventKind>(kind));
        QCOMPARE(QString::fromUtf8(name.data(), qsizetype(name.size())), table);
        Db db(generatedSql());
        QVERIFY(!rows(db.db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name = ?",
                      std::string(name))
                     .isEmpty());
        const auto& spans = schema::spanEventTables();
        const bool isSpanTable = std::find(spans.begin(), spans.end(), name) != spans.end();
        QCOMPARE(isSpanTable, static_cast<EventKind>(kind) != EventKind::Step);
    }
};

QTEST_GUILESS_MAIN(TestTableSchema)
#include "tst_tableschema.moc"
