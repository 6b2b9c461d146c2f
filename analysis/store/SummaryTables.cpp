#include "store/SummaryTables.h"

#include "store/Sqlite.h"
#include "store/Tables.h"
#include "store/Workspace.h"

namespace cnp {

void ensureSummaryTables(Workspace& ws) {
    execSql(ws.db(), schema::createSummaryTablesSql());
    for (const auto& column : schema::laterSummaryRankColumns())
        if (!hasColumn(ws, schema::kSummaryRank.name, column.name))
            execSql(ws.db(), "ALTER TABLE summary_rank ADD COLUMN " +
                                 schema::columnDefinition(schema::kSummaryRank, column.name));
}

bool hasColumn(const Workspace& ws, std::string_view table, std::string_view column) {
    Statement st(ws.db(), "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?");
    st.bind(1, table).bind(2, column);
    return st.step() && st.i64(0) > 0;
}

std::set<std::string, std::less<>> columnsOf(const Workspace& ws, std::string_view table) {
    std::set<std::string, std::less<>> out;
    Statement st(ws.db(), "SELECT name FROM pragma_table_info(?)");
    st.bind(1, table);
    while (st.step())
        out.insert(st.text(0));
    return out;
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
