#include "store/LinkedEventShards.h"

#include "core/EventsElsewhere.h"
#include "core/RunAttributeKeys.h"
#include "store/MetaKeys.h"
#include "store/RankQueries.h"
#include "store/ShardSegments.h"
#include "store/Sqlite.h"

#include <filesystem>

namespace cnp {

namespace {

// The text of `ranks` as events.shard_ranks writes one shard's: "0-7", "3,5-6".
std::string ranksText(const std::vector<std::int32_t>& ranks) {
    return EventShardRanks({ranks}).text();
}

} // namespace

std::string linkedShardsDir(const Workspace& ws, RunId runId) {
    return ws.file() + ".events/run-" + std::to_string(runId.value());
}

std::string linkedShardPath(const Workspace& ws, RunId runId, int shard) {
    return linkedShardsDir(ws, runId) + "/shard-" + std::to_string(shard) + ".cnpdb";
}

LinkedEventShards::LinkedEventShards(const Workspace& ws, RunId runId) : ws_(ws), runId_(runId) {}

LinkedEventShards::~LinkedEventShards() = default;

LinkedEventShards::State LinkedEventShards::state() const {
    const auto text = ws_.runAttribute(runId_, kEventShardRanksAttribute);
    auto ranks = text ? EventShardRanks::parse(*text) : std::nullopt;
    if (!ranks)
        refuse(nullptr, {});
    State s{std::move(*ranks), {}};
    s.linked.assign(static_cast<std::size_t>(s.ranks.shardCount()), false);
    const auto fetched = ws_.runAttribute(runId_, kEventsFetchedAttribute);
    if (const auto list = parseShardList(fetched.value_or(""), s.ranks.shardCount()))
        for (const int k : *list)
            s.linked[static_cast<std::size_t>(k)] = true;
    if (open_.size() != s.linked.size())
        open_.resize(s.linked.size());
    return s;
}

void LinkedEventShards::refuse(const State* s, std::vector<int> missing) const {
    const std::string run = ws_.runLabel(runId_);
    const auto where = ws_.runAttribute(runId_, kIngestEventsAttribute);
    const auto elsewhere = ws_.runAttribute(runId_, kEventsElsewhereAttribute);
    std::string shards;
    if (s)
        for (const int k : missing)
            shards += (shards.empty() ? "" : ", ") + std::string("shard ") + std::to_string(k) + " (ranks " +
                      ranksText(s->ranks.ranksOf(k)) + ")";
    std::string message = "run " + run + " holds its summaries only: the events of " +
                          (shards.empty() ? std::string("its ranks") : shards) + " stayed with its shards (" +
                          (where ? "on the cluster, " + *where : elsewhere.value_or("elsewhere")) + ")";
    if (s && where)
        message += "; fetch them with `cnp run PLAN " + ws_.path() + " --fetch-events " + run +
                   "` (or open the run's timeline in the workbench)";
    else
        message += ", so what reads events (the timeline, collectives, stragglers, critical-path, whatif, "
                   "diff --step, event exports) cannot run on it here";
    throw EventsElsewhere(ws_.path(), message, runId_, std::move(missing));
}

const Workspace& LinkedEventShards::shard(int k, const State& s) const {
    auto& slot = open_[static_cast<std::size_t>(k)];
    if (slot)
        return *slot;
    const std::string path = linkedShardPath(ws_, runId_, k);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw InputError(path, "the fetched events of shard " + std::to_string(k) + " of run " +
                                   ws_.runLabel(runId_) +
                                   " are missing (the workspace was moved without its .events folder?): "
                                   "fetch them again with cnp run PLAN WS --fetch-events");
    auto opened = std::make_unique<Workspace>(path, Workspace::Mode::ReadOnly);
    const auto ids = opened->meta(std::string(metakeys::kStringIds));
    if (ids != std::string(kLinkedStringIds) ||
        RankQueries(*opened).rankNumbers(runId_) != s.ranks.ranksOf(k))
        throw InputError(path, "is not shard " + std::to_string(k) + " of run " + ws_.runLabel(runId_) +
                                   " as fetched and linked (ranks " + ranksText(s.ranks.ranksOf(k)) +
                                   ", strings rebound): fetch it again");
    slot = std::move(opened);
    return *slot;
}

std::vector<EventSegment> LinkedEventShards::segments(std::string_view table) const {
    const State s = state();
    std::vector<int> missing;
    for (int k = 0; k < s.ranks.shardCount(); ++k)
        if (!s.linked[static_cast<std::size_t>(k)])
            missing.push_back(k);
    if (!missing.empty())
        refuse(&s, std::move(missing));
    const int n = s.ranks.shardCount();
    const ShardAt at = [&](int k) -> const Workspace& { return shard(k, s); };
    return shardSegments(shardRankHolders(n, at, runId_, ws_.path()), n, at, runId_, table);
}

EventSegment LinkedEventShards::storeOf(std::int32_t rank, std::string_view table) const {
    const State s = state();
    const int k = s.ranks.shardOf(rank);
    if (k < 0)
        return {&ws_, IdRange{}};
    if (!s.linked[static_cast<std::size_t>(k)])
        refuse(&s, {k});
    const Workspace& w = shard(k, s);
    return {&w, w.eventRows(runId_, table)};
}

} // namespace cnp
