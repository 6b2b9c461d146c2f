#include "store/ShardParts.h"

#include "store/Sqlite.h"
#include "store/StoredValueCheck.h"
#include "store/StringInterner.h"
#include "store/Tables.h"

#include <map>

namespace cnp {

void writeShardPart(Workspace& ws, const ShardPartRow& row) {
    execSql(ws.db(), schema::createShardPartSql());
    Statement st(ws.db(), "INSERT OR REPLACE INTO shard_part(" + schema::columnList(schema::kShardPart) +
                              ") VALUES(?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, row.runId)
        .bind(2, row.stepsPattern)
        .bind(3, row.stepsByName ? 1 : 0)
        .bind(4, row.kernelFormat);
    sqlite3_bind_blob64(st.handle(), 5, row.kernelGroups.data(), row.kernelGroups.size(), SQLITE_TRANSIENT);
    st.bind(6, row.overviewFormat);
    sqlite3_bind_blob64(st.handle(), 7, row.overviewPart.data(), row.overviewPart.size(), SQLITE_TRANSIENT);
    st.exec();
}

namespace {

std::string blobAt(Statement& st, int column) {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(st.handle(), column));
    const int n = sqlite3_column_bytes(st.handle(), column);
    return p && n > 0 ? std::string(p, static_cast<std::size_t>(n)) : std::string();
}

// Workspace string id -> `into`'s string id, for RowTable::readRow.
struct InternedStrings {
    Statement byId;
    StringTable& into;
    std::map<std::int64_t, StringId> seen;
    StringId localString(std::int64_t id) {
        if (const auto it = seen.find(id); it != seen.end())
            return it->second;
        byId.bind(1, id);
        const StringId local = byId.step() ? into.intern(byId.text(0)) : 0;
        byId.reset();
        seen.emplace(id, local);
        return local;
    }
};

template <class Desc, class Row>
void readRows(const Workspace& ws, RunId runId, const Desc& desc, const char* orderBy,
              InternedStrings& strings, std::vector<Row>& out) {
    Statement st(ws.db(), "SELECT " + desc.valueColumns() + " FROM " + std::string(desc.name) +
                              " WHERE run_id = ? ORDER BY " + orderBy);
    st.bind(1, runId);
    while (st.step()) {
        Row e;
        desc.readRow(st, 0, e, strings);
        if (const std::string problem = StoredValueCheck::problemOf(desc, e); !problem.empty())
            throw InputError(ws.path(), std::string(desc.name) + ": a row of run " + ws.runLabel(runId) +
                                            " (rank " + std::to_string(e.rank) + "): " + problem);
        out.push_back(std::move(e));
    }
}

} // namespace

std::optional<ShardPartRow> readShardPart(const Workspace& ws, RunId runId, bool blobs) {
    if (queryInt(ws.db(),
                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'shard_part'") == 0)
        return std::nullopt;
    Statement st(ws.db(),
                 blobs ? "SELECT " + schema::columnList(schema::kShardPart) +
                             " FROM shard_part WHERE run_id = ?"
                       : "SELECT run_id, steps_pattern, steps_by_name, kernel_format, NULL, overview_format, "
                         "NULL FROM shard_part WHERE run_id = ?");
    st.bind(1, runId);
    if (!st.step())
        return std::nullopt;
    ShardPartRow row;
    row.runId = st.runId(0);
    row.stepsPattern = st.i32(1);
    row.stepsByName = st.i64(2) != 0;
    row.kernelFormat = st.i64(3);
    row.kernelGroups = blobAt(st, 4);
    row.overviewFormat = st.i64(5);
    row.overviewPart = blobAt(st, 6);
    return row;
}

void readRanksAndSteps(const Workspace& ws, RunId runId, TraceData& into) {
    InternedStrings strings{Statement(ws.db(), "SELECT value FROM strings WHERE id = ?"), into.strings, {}};
    readRows(ws, runId, schema::kRanks, "rank", strings, into.ranks);
    readRows(ws, runId, schema::kSteps, "rank, step_index", strings, into.steps);
}

void copyContentStrings(const Workspace& shard, Workspace& index) {
    Statement read(shard.db(), "SELECT id, value FROM strings");
    Statement insert(index.db(), "INSERT INTO strings(id, value) VALUES(?, ?) ON CONFLICT DO NOTHING");
    Statement check(index.db(), "SELECT value FROM strings WHERE id = ?");
    while (read.step()) {
        const std::int64_t id = read.i64(0);
        const std::string value = read.text(1);
        if (id != StringInterner::contentStringId(value))
            throw InputError(shard.file(),
                             "strings: id " + std::to_string(id) + " is not the content id of its text");
        insert.bind(1, id).bind(2, value).exec();
        check.bind(1, id);
        const bool same = check.step() && check.text(0) == value;
        check.reset();
        if (!same)
            throw InputError(shard.file(),
                             "strings: id " + std::to_string(id) +
                                 " names another text in an earlier shard (a content id collision)");
    }
}

} // namespace cnp
