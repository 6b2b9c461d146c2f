#include "store/GapPackRows.h"

#include "core/InputError.h"
#include "store/GapPack.h"
#include "store/Sqlite.h"
#include "store/StoredValueCheck.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/Workspace.h"

namespace cnp {

void writeGapPack(Workspace& ws, RunId runId, const GapPackRow& row) {
    Statement st(ws.db(), "INSERT INTO summary_gap_pack(" + schema::columnList(schema::kSummaryGapPack) +
                              ") VALUES(?, ?, ?, ?, ?)");
    st.bind(1, runId).bind(2, row.rank).bind(3, row.format).bind(4, row.gapCount);
    sqlite3_bind_blob64(st.handle(), 5, row.pack.data(), row.pack.size(), SQLITE_TRANSIENT);
    st.exec();
}

bool runHasGapPacks(const Workspace& ws, RunId runId) {
    if (!hasTable(ws, schema::kSummaryGapPack.name))
        return false;
    Statement st(ws.db(), "SELECT 1 FROM summary_gap_pack WHERE run_id = ? LIMIT 1");
    st.bind(1, runId);
    return st.step();
}

void forEachGapPack(const Workspace& ws, RunId runId, std::int32_t rank,
                    const std::function<void(const GapPackRow&)>& visit) {
    if (!hasTable(ws, schema::kSummaryGapPack.name))
        return;
    Statement st(ws.db(), rank >= 0
                              ? "SELECT rank, format, gap_count, pack FROM summary_gap_pack WHERE run_id "
                                "= ? AND rank = ? ORDER BY rank"
                              : "SELECT rank, format, gap_count, pack FROM summary_gap_pack WHERE run_id "
                                "= ? ORDER BY rank");
    st.bind(1, runId);
    if (rank >= 0)
        st.bind(2, rank);
    GapPackRow row;
    while (st.step()) {
        row.rank = st.i32(0);
        row.format = st.i64(1);
        row.gapCount = st.i64(2);
        const auto* p = static_cast<const char*>(sqlite3_column_blob(st.handle(), 3));
        const int n = sqlite3_column_bytes(st.handle(), 3);
        row.pack.assign(p && n > 0 ? p : "", p && n > 0 ? static_cast<std::size_t>(n) : 0);
        visit(row);
    }
}

void forEachCheckedGap(const Workspace& ws, RunId runId, const GapPackRow& row,
                       const std::function<void(const SummaryGapRow&)>& visit) {
    GapPackReader rd(row.pack, row.format, row.rank, ws.path());
    auto where = [&] {
        return "summary_gap_pack: the row of run " + ws.runLabel(runId) + " (rank " +
               std::to_string(row.rank) + "): ";
    };
    if (static_cast<std::int64_t>(rd.count()) != row.gapCount)
        throw InputError(ws.path(), where() + "gap_count " + std::to_string(row.gapCount) +
                                        ", but the pack holds " + std::to_string(rd.count()));
    while (rd.next()) {
        if (const std::string problem = StoredValueCheck::problemOf(schema::kSummaryGapRows, rd.gap());
            !problem.empty())
            throw InputError(ws.path(), where() + problem);
        visit(rd.gap());
    }
}

void checkGapPackRow(const Workspace& ws, RunId runId, const GapPackRow& row) {
    forEachCheckedGap(ws, runId, row, [](const SummaryGapRow&) {});
}

std::vector<SummaryGapRow> unpackGapPackRow(const Workspace& ws, RunId runId, const GapPackRow& row) {
    std::vector<SummaryGapRow> gaps;
    forEachCheckedGap(ws, runId, row, [&](const SummaryGapRow& g) { gaps.push_back(g); });
    return gaps;
}

} // namespace cnp
