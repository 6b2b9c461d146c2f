#pragma once
// The shards of a study (store/StudyFolder.h) as the index workspace sees them: each shard a workspace of
// its own, opened with the index, and where a run's event rows are. A shard holds a run's rows under the
// run's index id, for the ranks its `ranks` table lists; which shard holds a rank is read from those tables
// on each call (one primary-key lookup per shard), so nothing goes stale while another process ingests.
#include "store/ShardSegments.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace cnp {

class StudyShards {
public:
    // A study opened to write opens (CreateIfMissing: creates) every shard now; one opened read-only opens
    // a shard when it is first read, so that commands reading only the index (runs, ablation, reports
    // without events) never open the shards.
    StudyShards(StudyFolder folder, Workspace::Mode mode);
    ~StudyShards();

    const StudyFolder& folder() const { return folder_; }
    int count() const { return folder_.shardCount(); }
    Workspace& shard(int k);
    const Workspace& shard(int k) const;

    // Copies each shard's write-ahead log into its file, `threads` shards at a time (SQLite's automatic
    // checkpoint is off on a writable study's shards: it would copy them one after the other at commit,
    // about a fifth of an ingest's wall time). Call after a commit. Throws SqliteError naming the shard.
    void checkpoint(unsigned threads);

    // Run `runId`'s (rank, shard) pairs by rank. InputError naming the study when two shards claim a rank.
    std::vector<std::pair<std::int32_t, int>> holders(RunId runId) const;
    // See Workspace::eventSegments: per shard, the rank boundaries are binary searches of its id range.
    std::vector<EventSegment> segments(RunId runId, std::string_view table) const;
    // See Workspace::eventStoreOf; `fallback` is returned with an empty range when no shard holds `rank`.
    EventSegment storeOf(RunId runId, std::int32_t rank, std::string_view table,
                         const Workspace* fallback) const;

private:
    Workspace& opened(int k) const; // opens shard k on first use
    ShardAt shardAt() const;

    StudyFolder folder_;
    Workspace::Mode mode_;
    mutable std::vector<std::unique_ptr<Workspace>> shards_; // null until opened
};

} // namespace cnp
