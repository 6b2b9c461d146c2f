#include "store/OverviewBlobs.h"

#include "store/Sqlite.h"
#include "store/Tables.h"

namespace cnp {

void writeOverviewBlob(Workspace& ws, RunId runId, std::int64_t format, std::string_view bytes) {
    execSql(ws.db(), schema::createTimelineOverviewSql());
    Statement st(ws.db(), "INSERT OR REPLACE INTO timeline_overview(run_id, format, data) VALUES(?, ?, ?)");
    st.bind(1, runId).bind(2, format);
    sqlite3_bind_blob64(st.handle(), 3, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    st.exec();
}

namespace {

bool overviewTableExists(const Workspace& ws) {
    return queryInt(ws.db(), "SELECT count(*) FROM sqlite_master WHERE name = 'timeline_overview'") != 0;
}

} // namespace

bool hasOverviewBlob(const Workspace& ws, RunId runId, std::int64_t format) {
    if (!overviewTableExists(ws))
        return false;
    Statement st(ws.db(), "SELECT 1 FROM timeline_overview WHERE run_id = ? AND format = ?");
    st.bind(1, runId).bind(2, format);
    return st.step();
}

bool readOverviewBlob(const Workspace& ws, RunId runId,
                      const std::function<void(const char* data, std::size_t size)>& use) {
    if (!overviewTableExists(ws))
        return false;
    Statement st(ws.db(), "SELECT data FROM timeline_overview WHERE run_id = ?");
    st.bind(1, runId);
    if (!st.step())
        return false;
    use(static_cast<const char*>(sqlite3_column_blob(st.handle(), 0)),
        static_cast<std::size_t>(sqlite3_column_bytes(st.handle(), 0)));
    return true;
}

} // namespace cnp
