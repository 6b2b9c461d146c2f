#include "store/SummaryRowReader.h"

#include "core/InputError.h"
#include "store/GapPack.h"
#include "store/GapPackRows.h"
#include "store/Sqlite.h"
#include "store/StoredValueCheck.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/Workspace.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace cnp {

namespace {

struct NoStrings {}; // the summary rows hold no trace string ids

// Calls `visit` with each result row of `st` (a SELECT of `table`'s selectList) read into one Row reused
// from row to row (every member is assigned by each read, so `visit` may move from it); a value outside its
// stated range (store/StoredValueCheck.h) is refused, naming the workspace, table, run, rank and value.
// O(rows); memory one row.
template <class Row, class Table, class Visit>
void readEach(Statement& st, const Table& table, const Workspace& ws, RunId runId, Visit&& visit) {
    NoStrings ctx;
    Row r;
    while (st.step()) {
        table.readRow(st, 0, r, ctx);
        if (const std::string problem = StoredValueCheck::problemOf(table, r); !problem.empty())
            throw InputError(ws.path(), std::string(table.name) + ": a row of run " + ws.runLabel(runId) +
                                            (r.rank < 0 ? std::string(" (all ranks): ")
                                                        : " (rank " + std::to_string(r.rank) + "): ") +
                                            problem);
        visit(r);
    }
}

// Every result row of `st`, as readEach reads them, in a vector.
template <class Row, class Table>
std::vector<Row> readAll(Statement& st, const Table& table, const Workspace& ws, RunId runId) {
    std::vector<Row> out;
    readEach<Row>(st, table, ws, runId, [&](Row& r) { out.push_back(std::move(r)); });
    return out;
}

// The select list of `t`'s columns the workspace's table has: a table written before a column was added
// reads it as NULL (0 / nullopt) instead of failing. One PRAGMA query.
template <class Table>
std::string presentColumnList(const Workspace& ws, const Table& t, std::string_view prefix) {
    const auto present = columnsOf(ws, t.name);
    return t.selectList(prefix, [&](std::string_view c) { return present.count(c) > 0; });
}

} // namespace

std::vector<SummaryRankRow> SummaryRowReader::ranks() const {
    const auto& t = schema::kSummaryRankRows;
    Statement st(ws_.db(), "SELECT " + presentColumnList(ws_, t, "") +
                               " FROM summary_rank WHERE run_id = ? ORDER BY rank");
    st.bind(1, runId_);
    return readAll<SummaryRankRow>(st, t, ws_, runId_);
}

std::vector<SummaryExclusiveRow> SummaryRowReader::exclusive(RankId rank, StepIndex step) const {
    const auto& t = schema::kSummaryExclusiveRows;
    Statement st(ws_.db(),
                 "SELECT " + t.selectList("e.") +
                     " FROM summary_exclusive e WHERE e.run_id = ? AND e.rank = ? AND e.step_index = ? "
                     "AND EXISTS (SELECT 1 FROM strings s WHERE s.id = e.category_id)");
    st.bind(1, runId_).bind(2, rank).bind(3, step);
    return readAll<SummaryExclusiveRow>(st, t, ws_, runId_);
}

std::vector<SummaryExclusiveRow> SummaryRowReader::stepExclusive(std::int32_t rank) const {
    const auto& t = schema::kSummaryExclusiveRows;
    Statement st(ws_.db(), "SELECT " + t.selectList("e.") +
                               " FROM summary_exclusive e WHERE e.run_id = ? AND e.step_index >= 0 AND "
                               "(? < 0 OR e.rank = ?) AND EXISTS (SELECT 1 FROM strings s WHERE s.id = "
                               "e.category_id)");
    st.bind(1, runId_).bind(2, rank).bind(3, rank);
    return readAll<SummaryExclusiveRow>(st, t, ws_, runId_);
}

std::vector<SummaryStepRow> SummaryRowReader::steps(std::int32_t rank) const {
    const auto& t = schema::kSummaryStepRows;
    Statement st(ws_.db(), "SELECT " + presentColumnList(ws_, t, "p.") +
                               " FROM summary_step p WHERE p.run_id = ? AND (? < 0 OR p.rank = ?) "
                               "ORDER BY p.rank, p.step_index");
    st.bind(1, runId_).bind(2, rank).bind(3, rank);
    return readAll<SummaryStepRow>(st, t, ws_, runId_);
}

std::int64_t SummaryRowReader::kernelTotalNs(std::int32_t rank) const {
    // Summed here, saturating: SQL's SUM fails with "integer overflow" on crafted totals.
    Statement st(ws_.db(), "SELECT total_ns FROM summary_kernel WHERE run_id = ? AND rank = ?");
    st.bind(1, runId_).bind(2, rank);
    std::int64_t total = 0;
    while (st.step())
        total = saturatingAdd(total, std::max<std::int64_t>(st.i64(0), 0));
    return total;
}

std::vector<SummaryKernelRow> SummaryRowReader::kernels(std::int32_t rank, std::size_t limit) const {
    const auto& t = schema::kSummaryKernelRows;
    std::string sql = "SELECT " + t.selectList("k.") +
                      " FROM summary_kernel k JOIN strings n ON n.id = k.name_id WHERE k.run_id = ? AND "
                      "k.rank = ? ORDER BY k.total_ns DESC, n.value";
    if (limit > 0)
        sql += " LIMIT " + std::to_string(limit);
    Statement st(ws_.db(), sql);
    st.bind(1, runId_).bind(2, rank);
    return readAll<SummaryKernelRow>(st, t, ws_, runId_);
}

std::vector<SummaryGapRow> SummaryRowReader::gaps(std::int64_t minLengthNs) const {
    if (!runHasGapPacks(ws_, runId_))
        return storedGapRows(minLengthNs);
    std::vector<SummaryGapRow> out;
    forEachRankGaps([&](std::vector<SummaryGapRow>&& rankGaps) {
        for (auto& g : rankGaps)
            if (g.endNs - g.startNs >= minLengthNs)
                out.push_back(std::move(g));
    });
    std::stable_sort(out.begin(), out.end(), [](const SummaryGapRow& a, const SummaryGapRow& b) {
        return a.endNs - a.startNs > b.endNs - b.startNs;
    });
    return out;
}

void SummaryRowReader::forEachRankGaps(const std::function<void(std::vector<SummaryGapRow>&&)>& visit) const {
    if (!runHasGapPacks(ws_, runId_)) {
        std::vector<SummaryGapRow> all = storedGapRows(0);
        std::stable_sort(all.begin(), all.end(), [](const SummaryGapRow& a, const SummaryGapRow& b) {
            return a.rank != b.rank ? a.rank < b.rank : a.startNs < b.startNs;
        });
        for (auto from = all.begin(); from != all.end();) {
            const auto to =
                std::find_if(from, all.end(), [&](const SummaryGapRow& g) { return g.rank != from->rank; });
            visit(std::vector<SummaryGapRow>(std::make_move_iterator(from), std::make_move_iterator(to)));
            from = to;
        }
        return;
    }
    forEachGapPack(ws_, runId_, -1,
                   [&](const GapPackRow& row) { visit(unpackGapPackRow(ws_, runId_, row)); });
}

std::vector<SummaryGapRow> SummaryRowReader::storedGapRows(std::int64_t minLengthNs) const {
    const auto& t = schema::kSummaryGapRows;
    Statement st(ws_.db(), "SELECT " + t.selectList("g.") +
                               " FROM summary_gap g WHERE g.run_id = ? AND g.end_ns - g.start_ns >= ? "
                               "ORDER BY g.end_ns - g.start_ns DESC, g.rank, g.start_ns");
    st.bind(1, runId_).bind(2, minLengthNs);
    return readAll<SummaryGapRow>(st, t, ws_, runId_);
}

std::vector<SummarySyncRow> SummaryRowReader::syncs() const {
    const auto& t = schema::kSummarySyncRows;
    if (!hasTable(ws_, t.name))
        return {};
    Statement st(ws_.db(), "SELECT " + t.selectList("y.") +
                               " FROM summary_sync y WHERE y.run_id = ? "
                               "ORDER BY y.end_ns - y.start_ns DESC, y.rank, y.start_ns");
    st.bind(1, runId_);
    return readAll<SummarySyncRow>(st, t, ws_, runId_);
}

void SummaryRowReader::forEachSync(const std::function<void(const SummarySyncRow&)>& visit) const {
    const auto& t = schema::kSummarySyncRows;
    if (!hasTable(ws_, t.name))
        return;
    Statement st(ws_.db(), "SELECT " + t.selectList("y.") + " FROM summary_sync y WHERE y.run_id = ?");
    st.bind(1, runId_);
    readEach<SummarySyncRow>(st, t, ws_, runId_, visit);
}

std::vector<SummaryStreamRow> SummaryRowReader::streams() const {
    const auto& t = schema::kSummaryStreamRows;
    if (!hasTable(ws_, t.name))
        return {};
    Statement st(ws_.db(),
                 "SELECT " + t.selectList("s.") +
                     " FROM summary_stream s WHERE s.run_id = ? ORDER BY s.rank, s.device, s.stream");
    st.bind(1, runId_);
    return readAll<SummaryStreamRow>(st, t, ws_, runId_);
}

} // namespace cnp
