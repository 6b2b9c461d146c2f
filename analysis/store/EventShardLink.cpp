#include "store/EventShardLink.h"

#include "core/EventShardRanks.h"
#include "core/InputError.h"
#include "core/RunAttributeKeys.h"
#include "store/LinkedEventShards.h"
#include "store/MetaKeys.h"
#include "store/RankQueries.h"
#include "store/Sqlite.h"
#include "store/StringInterner.h"
#include "store/SummaryFile.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

namespace cnp {

namespace {

namespace fs = std::filesystem;

// Per table, the columns holding string ids in a shard's event rows, steps and collective arguments.
std::vector<std::pair<std::string, std::vector<std::string>>> stringIdColumns() {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    auto add = [&](const auto& table) {
        std::vector<std::string> columns;
        table.visitColumns([&](const schema::Column& c, bool stringId) {
            if (stringId)
                columns.emplace_back(c.name);
        });
        if (!columns.empty())
            out.emplace_back(std::string(table.name), std::move(columns));
    };
    add(schema::kKernels);
    add(schema::kMemcpys);
    add(schema::kMemsets);
    add(schema::kApiCalls);
    add(schema::kCpuRanges);
    add(schema::kGpuAnnotations);
    add(schema::kFlows);
    add(schema::kCounters);
    add(schema::kSteps);
    add(schema::kCollectiveArgs);
    return out;
}

// What makes `shard` the run's shard K as ingest-shard wrote it; InputError naming it otherwise.
void checkFetchedShard(const Workspace& shard, RunId runId, const std::vector<std::int32_t>& expected, int k,
                       const std::string& run) {
    auto refuse = [&](const std::string& why) {
        throw InputError(shard.path(), "is not shard " + std::to_string(k) + " of run " + run + ": " + why);
    };
    if (!StringInterner::contentIds(shard.db()))
        refuse("its strings are not numbered by content (not a shard written by cnp ingest-shard)");
    if (holdsNoEvents(shard))
        refuse("it is a summary file, whose events were left out (the shard is shard-K.cnpdb beside it)");
    if (!hasTable(shard, "shard_part"))
        refuse("it has no shard_part table (not a shard written by cnp ingest-shard)");
    Statement runs(shard.db(), "SELECT id FROM runs");
    std::vector<std::int64_t> ids;
    while (runs.step())
        ids.push_back(runs.i64(0));
    if (ids != std::vector<std::int64_t>{runId.value()})
        refuse("it holds " + std::to_string(ids.size()) + " run(s), not only run id " +
               std::to_string(runId.value()));
    Statement part(shard.db(), "SELECT COUNT(*) FROM shard_part WHERE run_id = ?");
    part.bind(1, runId);
    if (!part.step() || part.i64(0) != 1)
        refuse("no shard_part row of run id " + std::to_string(runId.value()));
    if (RankQueries(shard).rankNumbers(runId) != expected)
        refuse("its ranks are not " + EventShardRanks({expected}).text());
}

// Rewrites every string id of the shard's rows to the workspace's (interning in `ws` what it lacks), and its
// strings table to match. A row naming an id its strings table lacks fails the NOT NULL constraint.
void rebindStrings(Workspace& ws, Workspace& shard) {
    std::vector<std::pair<std::int64_t, std::string>> strings;
    {
        Statement st(shard.db(), "SELECT id, value FROM strings");
        while (st.step())
            strings.emplace_back(st.i64(0), st.text(1));
    }
    StringInterner interner(ws.db());
    execSql(shard.db(), "CREATE TEMP TABLE cnp_string_map(old INTEGER PRIMARY KEY, new INTEGER NOT NULL, "
                        "value TEXT NOT NULL)");
    bool identity = true;
    {
        Statement ins(shard.db(), "INSERT INTO temp.cnp_string_map(old, new, value) VALUES(?, ?, ?)");
        for (const auto& [id, text] : strings) {
            const std::int64_t mine = interner.intern(text);
            identity = identity && mine == id;
            ins.bind(1, id).bind(2, mine).bind(3, text);
            ins.step();
            ins.reset();
        }
    }
    if (!identity) {
        // One UPDATE a table (each rewrites every page of it), a primary-key lookup per id.
        for (const auto& [table, columns] : stringIdColumns()) {
            if (!hasTable(shard, table))
                continue;
            std::string set;
            for (const auto& c : columns)
                set += (set.empty() ? "" : ", ") + c +
                       " = (SELECT new FROM temp.cnp_string_map WHERE old = " + c + ")";
            execSql(shard.db(), "UPDATE " + table + " SET " + set);
        }
        execSql(shard.db(), "DELETE FROM strings");
        execSql(shard.db(), "INSERT INTO strings(id, value) SELECT new, value FROM temp.cnp_string_map");
    }
    execSql(shard.db(), "DROP TABLE temp.cnp_string_map");
}

} // namespace

void linkFetchedShard(Workspace& ws, RunId runId, int shard, const std::string& incoming) {
    const std::string run = ws.runLabel(runId);
    const auto text = ws.runAttribute(runId, kEventShardRanksAttribute);
    const auto ranks = text ? EventShardRanks::parse(*text) : std::nullopt;
    if (!ranks || shard < 0 || shard >= ranks->shardCount())
        throw InputError(ws.path(), "run " + run + " records no shard " + std::to_string(shard) +
                                        " of its events (events.shard_ranks)");
    const auto fetched =
        parseShardList(ws.runAttribute(runId, kEventsFetchedAttribute).value_or(""), ranks->shardCount());
    std::vector<int> linked = fetched.value_or(std::vector<int>{});
    const std::string target = linkedShardPath(ws, runId, shard);
    Transaction tx = writeTransaction(ws);
    try {
        Workspace file(incoming, Workspace::Mode::ReadWrite);
        checkFetchedShard(file, runId, ranks->ranksOf(shard), shard, run);
        execSql(file.db(), "PRAGMA journal_mode=DELETE");
        execSql(file.db(), "PRAGMA journal_mode=OFF");
        Transaction rewrite(file.db());
        rebindStrings(ws, file);
        deleteRunSummaries(file, runId);
        execSql(file.db(), "DELETE FROM shard_part");
        if (hasTable(file, "timeline_overview"))
            execSql(file.db(), "DELETE FROM timeline_overview");
        file.setMeta(std::string(metakeys::kStringIds), std::string(kLinkedStringIds));
        rewrite.commit();
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) { // SQLite's: a damaged file, a row naming a string it lacks
        throw InputError(incoming, "cannot be linked as shard " + std::to_string(shard) + " of run " + run +
                                       ": " + e.what());
    }
    std::error_code ec;
    fs::create_directories(fs::path(target).parent_path(), ec);
    fs::rename(incoming, target, ec);
    if (ec)
        throw InputError(target, "cannot move the fetched shard here: " + ec.message());
    if (std::find(linked.begin(), linked.end(), shard) == linked.end()) {
        linked.push_back(shard);
        std::sort(linked.begin(), linked.end());
    }
    ws.setRunAttribute(runId, kEventsFetchedAttribute, shardListText(linked));
    tx.commit();
}

} // namespace cnp
