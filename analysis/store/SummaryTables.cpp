#include "store/SummaryTables.h"

#include "store/Sqlite.h"
#include "store/Tables.h"
#include "store/Workspace.h"

namespace cnp {

namespace {

std::set<std::string, std::less<>> columnsOf(sqlite3* db, std::string_view table) {
    std::set<std::string, std::less<>> out;
    Statement st(db, "SELECT name FROM pragma_table_info(?)");
    st.bind(1, table);
    while (st.step())
        out.insert(st.text(0));
    return out;
}

} // namespace

void ensureSummaryTables(Workspace& ws) {
    execSql(ws.db(), schema::createSummaryTablesSql());
    addMissingSummaryColumns(ws.db());
}

void addMissingSummaryColumns(sqlite3* db) {
    for (const auto& t : schema::summaryTables()) {
        const auto present = columnsOf(db, t.name);
        if (present.empty())
            continue; // no such table
        for (const auto& column : t.columns)
            if (!present.contains(column.name))
                execSql(db, "ALTER TABLE " + std::string(t.name) + " ADD COLUMN " +
                                schema::columnDefinition(t, column.name));
    }
}

// Two passes over summary_gap's launch-bound rows (an aggregate each), then one keyed update per summary
// row: O(gap rows + summary rows x log), not a correlated scan of the gaps per row.
void fillLaunchBoundIdle(sqlite3* db) {
    if (columnsOf(db, schema::kSummaryGap.name).empty())
        return;
    execSql(db, "UPDATE summary_step SET launch_bound_idle_ns = 0;"
                "UPDATE summary_step SET launch_bound_idle_ns = g.ns FROM (SELECT run_id, rank, step_index, "
                "SUM(end_ns - start_ns) AS ns FROM summary_gap WHERE cpu_state = 'launch-bound' GROUP BY "
                "run_id, rank, step_index) AS g WHERE summary_step.run_id = g.run_id AND summary_step.rank = "
                "g.rank AND summary_step.step_index = g.step_index;"
                "UPDATE summary_rank SET launch_bound_idle_ns = 0;"
                "UPDATE summary_rank SET launch_bound_idle_ns = g.ns FROM (SELECT run_id, rank, "
                "SUM(end_ns - start_ns) AS ns FROM summary_gap WHERE cpu_state = 'launch-bound' GROUP BY "
                "run_id, rank) AS g WHERE summary_rank.run_id = g.run_id AND summary_rank.rank = g.rank;");
}

std::set<std::string, std::less<>> columnsOf(const Workspace& ws, std::string_view table) {
    return columnsOf(ws.db(), table);
}

bool hasTable(const Workspace& ws, std::string_view table) {
    Statement st(ws.db(), "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name = ?");
    st.bind(1, table);
    return st.step() && st.i64(0) > 0;
}

bool runHasSummaries(const Workspace& ws, RunId runId) {
    if (!hasTable(ws, schema::kSummaryRank.name))
        return false;
    Statement st(ws.db(), "SELECT COUNT(*) FROM summary_rank WHERE run_id = ?");
    st.bind(1, runId);
    return st.step() && st.i64(0) > 0;
}

void deleteRunSummaries(Workspace& ws, RunId runId) {
    ensureSummaryTables(ws);
    for (const auto& t : schema::summaryTables()) {
        Statement del(ws.db(), "DELETE FROM " + std::string(t.name) + " WHERE run_id = ?");
        del.bind(1, runId).exec();
    }
}

} // namespace cnp
