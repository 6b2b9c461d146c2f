#pragma once
// Links a fetched shard into a workspace (docs/launcher.md, "Events on demand"): the events of a run added
// from summary files (ingest/StudyAssembler.h addRunFromSummaries) stay in the shards where they were
// written; once shard K's file (a shard written alone, docs/schema.md) is here it becomes the run's
// linked shard K (store/LinkedEventShards.h), which every event reader then reads.
#include "core/Ids.h"

#include <string>

namespace cnp {

class Workspace;

// Checks `incoming` (a local file: the fetched shard-K.cnpdb) holds run `runId` and exactly the ranks the
// run's events.shard_ranks gives shard `shard`, as a finished shard written alone (strings numbered by
// content, a shard_part row); rebinds its string ids to `ws`'s (texts `ws` lacks are interned into it),
// drops its summary rows and overview (the workspace has them), moves it to linkedShardPath(ws, runId,
// shard), replacing an earlier one, and adds `shard` to events.fetched. One write transaction on `ws`;
// `incoming` is rewritten in place (without a rollback journal: a file cut short by a crash is fetched
// again). Throws InputError naming `incoming` (or the workspace) for any mismatch; `ws` is then unchanged.
// O(rows of the shard) for the rebinding.
void linkFetchedShard(Workspace& ws, RunId runId, int shard, const std::string& incoming);

} // namespace cnp
