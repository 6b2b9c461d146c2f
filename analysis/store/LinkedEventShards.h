#pragma once
// The events of one run added from summary files (run attribute events.elsewhere) as far as its shards were
// fetched and linked into the workspace (store/EventShardLink.h; docs/launcher.md, "Events on demand"):
// shard K of the run's events.shard_ranks is the file linkedShardPath(ws, run, K) once events.fetched names
// K. Both attributes are re-read on every call (a fetch by another connection shows at once); a linked
// file is opened read-only when first read and checked then: it must hold exactly that run and shard K's
// ranks, its strings rebound to the workspace's ids (meta string_ids = kLinkedStringIds). Every path is
// the program's own (the workspace's file, the run id, K < 1024), so a shared workspace cannot point
// elsewhere.
#include "core/EventShardRanks.h"
#include "store/Workspace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

// meta string_ids of a linked shard: its string ids are the workspace's.
inline constexpr std::string_view kLinkedStringIds = "linked";

// <workspace file>.events/run-<id>: the run's linked shards, and incoming/ for files being fetched.
std::string linkedShardsDir(const Workspace& ws, RunId runId);
// <linkedShardsDir>/shard-<k>.cnpdb.
std::string linkedShardPath(const Workspace& ws, RunId runId, int shard);

class LinkedEventShards {
public:
    LinkedEventShards(const Workspace& ws, RunId runId);
    ~LinkedEventShards();
    LinkedEventShards(const LinkedEventShards&) = delete;
    LinkedEventShards& operator=(const LinkedEventShards&) = delete;

    // As Workspace::eventSegments; EventsElsewhere (core/EventsElsewhere.h) naming the shards not linked
    // unless every shard is.
    std::vector<EventSegment> segments(std::string_view table) const;
    // As Workspace::eventStoreOf; EventsElsewhere unless the shard holding `rank` is linked (a rank the run
    // has no shard for gives the workspace with an empty range).
    EventSegment storeOf(std::int32_t rank, std::string_view table) const;

private:
    struct State {
        EventShardRanks ranks;
        std::vector<bool> linked; // by shard
    };
    State state() const;
    const Workspace& shard(int k, const State& s) const; // opened and checked on first use
    [[noreturn]] void refuse(const State* s, std::vector<int> missing) const;

    const Workspace& ws_;
    RunId runId_;
    mutable std::vector<std::unique_ptr<Workspace>> open_; // by shard, null until opened
};

} // namespace cnp
