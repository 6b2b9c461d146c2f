#pragma once
// The shards of a study (store/StudyFolder.h) as the index workspace sees them: each shard a workspace of
// its own, opened with the index, and where a run's event rows are. A shard holds a run's rows under the
// run's index id, for the ranks its `ranks` table lists; which shard holds a rank is read from those tables
// on each call (one primary-key lookup per shard), so nothing goes stale while another process ingests.
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
    // Opens every shard in `mode` (CreateIfMissing creates the missing ones).
    StudyShards(StudyFolder folder, Workspace::Mode mode);
    ~StudyShards();

    const StudyFolder& folder() const { return folder_; }
    int count() const { return static_cast<int>(shards_.size()); }
    Workspace& shard(int k) { return *shards_.at(static_cast<std::size_t>(k)); }
    const Workspace& shard(int k) const { return *shards_.at(static_cast<std::size_t>(k)); }

    // Run `runId`'s (rank, shard) pairs by rank. InputError naming the study when two shards claim a rank.
    std::vector<std::pair<std::int32_t, int>> holders(RunId runId) const;
    // See Workspace::eventSegments: per shard, the rank boundaries are binary searches of its id range.
    std::vector<EventSegment> segments(RunId runId, std::string_view table) const;
    // See Workspace::eventStoreOf; `fallback` is returned with an empty range when no shard holds `rank`.
    EventSegment storeOf(RunId runId, std::int32_t rank, std::string_view table,
                         const Workspace* fallback) const;

private:
    StudyFolder folder_;
    std::vector<std::unique_ptr<Workspace>> shards_;
};

} // namespace cnp
