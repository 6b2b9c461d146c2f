#pragma once
// A run's event rows spread over shard workspaces (a study's shards, store/StudyShards.h; a run's fetched
// shards, store/LinkedEventShards.h): which shard holds each rank, and the run's rows of a table as
// segments in rank order. Each shard holds the rows of its ranks under the run's id, sorted by (rank, sort
// key) within the run's id range (docs/schema.md, "Studies of shards").
#include "store/Workspace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cnp {

// Gives shard k (0 <= k < count), opened.
using ShardAt = std::function<const Workspace&(int)>;

// The ids of `rank`'s rows within `range` (a run's id range of `table` in `store`, sorted by (rank, sort
// key)): two binary searches; an empty range when it has none.
IdRange rankIdRange(const Workspace& store, std::string_view table, IdRange range, std::int32_t rank);

// Run `runId`'s (rank, shard) pairs by rank, read from the shards' `ranks` tables (one query per shard).
// InputError naming `where` when two shards claim a rank.
std::vector<std::pair<std::int32_t, int>> shardRankHolders(int count, const ShardAt& shardAt, RunId runId,
                                                           const std::string& where);

// The run's rows of `table`: per holder, the rank's rows found by binary search of its shard's id range;
// consecutive ranks of one shard merged into one segment; empty ones left out. O(ranks x log rows).
std::vector<EventSegment> shardSegments(const std::vector<std::pair<std::int32_t, int>>& holders, int count,
                                        const ShardAt& shardAt, RunId runId, std::string_view table);

} // namespace cnp
