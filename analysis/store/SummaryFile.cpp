#include "store/SummaryFile.h"

#include "core/InputError.h"
#include "store/RankQueries.h"
#include "store/Schema.h"
#include "store/Sqlite.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/Workspace.h"
#include "store/WorkspaceRemoval.h"
#include "store/WorkspaceTransactions.h"

#include <filesystem>
#include <map>

namespace cnp {

namespace {

constexpr const char* kEventsKey = "events";
constexpr const char* kEventsLeftOut = "summary";

// VACUUM (and VACUUM INTO) attach their target as a database of the connection: the connection's own
// defence (no ATTACH, ConnectionDefences.h) is lifted for this one statement, whose SQL names no file of
// the input (the target path is bound).
void vacuum(sqlite3* db, const std::string& into) {
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 1);
    try {
        if (into.empty()) {
            execSql(db, "VACUUM");
        } else {
            Statement st(db, "VACUUM INTO ?");
            st.bind(1, std::string_view(into));
            st.exec();
        }
    } catch (...) {
        sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
        throw;
    }
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
}

// Of run `run`'s kernel rows, keeps those of category `category` on the lowest `perHost` ranks of each
// host (what the run's clock fit reads: requests/ClockAlignmentRequest.h) with their collective_args,
// renumbered from the run's first kernel id in their (rank, start) order, so that run_rows holds exactly
// their range; deletes every other kernel row. Inside the caller's write transaction.
void keepClockKernels(Workspace& ws, RunId run, const std::string& category, int perHost) {
    sqlite3* db = ws.db();
    Statement range(db, "SELECT first_id FROM run_rows WHERE run_id = ? AND table_name = 'kernels'");
    range.bind(1, run);
    const std::int64_t first = range.step() ? range.i64(0) : 1;
    range.reset();
    std::map<std::string, int> onHost;
    execSql(db, "CREATE TEMP TABLE keep_ranks(rank INTEGER PRIMARY KEY); "
                "CREATE TEMP TABLE keep_kernels AS SELECT * FROM kernels WHERE 0");
    Statement rank(db, "INSERT INTO temp.keep_ranks(rank) VALUES(?)");
    Statement keep(db,
                   "INSERT INTO temp.keep_kernels SELECT * FROM kernels WHERE run_id = ? AND rank = ? AND "
                   "category_id = (SELECT id FROM strings WHERE value = ?) ORDER BY id");
    for (const RankInfo& r : RankQueries(ws).ranksOfRun(run)) // rank order: each host's lowest first
        if (++onHost[r.host] <= perHost) {
            rank.bind(1, r.rank).exec();
            keep.bind(1, run).bind(2, r.rank).bind(3, std::string_view(category)).exec();
        }
    std::string columns;
    for (const auto& t : schema::eventTables())
        if (t.name == "kernels")
            columns = std::string(t.columns);
    execSql(db, "DELETE FROM kernels");
    Statement put(db, "INSERT INTO kernels(id, " + columns + ") SELECT ? + rowid - 1, " + columns +
                          " FROM temp.keep_kernels ORDER BY rowid");
    put.bind(1, first).exec();
    const std::int64_t kept = queryInt(db, "SELECT count(*) FROM temp.keep_kernels");
    if (kept > 0) {
        Statement rows(db, "INSERT OR REPLACE INTO run_rows(run_id, table_name, first_id, last_id) "
                           "VALUES(?, 'kernels', ?, ?)");
        rows.bind(1, run).bind(2, first).bind(3, first + kept - 1).exec();
    }
    if (queryInt(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'collective_args'") >
        0)
        execSql(db, "DELETE FROM collective_args WHERE rank NOT IN (SELECT rank FROM temp.keep_ranks)");
    execSql(db, "DROP TABLE temp.keep_ranks; DROP TABLE temp.keep_kernels");
}

} // namespace

void writeSummaryFile(const Workspace& shard, const std::string& out, const std::string& clockCategory,
                      int clockRanksPerHost) {
    std::error_code ec;
    if (std::filesystem::exists(out, ec) || ec)
        throw InputError(out, "exists; a summary file is written once, into a new file");
    // Written as <out>.part and renamed once whole: a reader that finds `out` (a launcher resuming after
    // a pod was killed) never finds half of one.
    const std::string part = out + ".part";
    removeCreatedWorkspace(part);
    try {
        {
            vacuum(shard.db(), part);
            Workspace ws(part, Workspace::Mode::ReadWrite);
            {
                Transaction tx = writeTransaction(ws);
                const std::vector<RunRecord> runs = ws.runs();
                if (runs.size() != 1)
                    throw InputError(shard.file(), "holds " + std::to_string(runs.size()) +
                                                       " runs; a summary file is made of a shard of one run");
                keepClockKernels(ws, runs.front().id, clockCategory, clockRanksPerHost);
                for (const auto& t : schema::eventTables())
                    if (t.name != "kernels")
                        execSql(ws.db(), "DELETE FROM " + quoteIdentifier(t.name));
                execSql(ws.db(), "DELETE FROM run_rows WHERE table_name <> 'kernels'");
                // The shard's own finished overview: assemble merges the shard_part's instead (~1 MB a rank
                // of 1M events, as much as the rest of the file).
                if (hasTable(ws, schema::kTimelineOverview.name))
                    execSql(ws.db(), "DELETE FROM timeline_overview");
                ws.setMeta(kEventsKey, kEventsLeftOut);
                tx.commit();
            }
            vacuum(ws.db(), {});
        }
        std::filesystem::rename(part, out, ec);
        if (ec)
            throw InputError(out, "cannot rename " + part + " to it: " + ec.message());
    } catch (...) {
        removeCreatedWorkspace(part);
        throw;
    }
}

bool holdsNoEvents(const Workspace& ws) {
    return ws.meta(kEventsKey) == std::string(kEventsLeftOut);
}

} // namespace cnp
