#pragma once
// Table shard_part (docs/schema.md), kept by a shard written alone (`cnp ingest-shard`), and the reads a
// study assembled from such shards makes of them (ingest/StudyAssembler.h): all of them summaries, never an
// event row. Each read is O(rows read).
#include "core/Ids.h"
#include "core/TraceData.h"
#include "store/Workspace.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cnp {

struct ShardPartRow {
    RunId runId;
    int stepsPattern = -1; // StepScheme::pattern
    bool stepsByName = false;
    std::int64_t kernelFormat = 0;
    std::string kernelGroups; // ingest/KernelDigest.h
    std::int64_t overviewFormat = 0;
    std::string overviewPart; // timeline/TimelineOverview.h encodeOverview, before the run-wide finish
};

// Creates the table when missing and writes the run's row. Inside the caller's write transaction.
void writeShardPart(Workspace& ws, const ShardPartRow& row);
// The run's row; nullopt when the workspace has no such table or no row for the run. `blobs`: the blobs
// are read whole (a shard's digest and overview part: a few hundred KB per rank), else left empty.
std::optional<ShardPartRow> readShardPart(const Workspace& ws, RunId runId, bool blobs = true);
// Appends the run's `ranks` rows (by rank) and `steps` rows (by rank, step_index) to `into`, their strings
// interned into `into.strings`; a stored value out of its range throws InputError naming the workspace.
void readRanksAndSteps(const Workspace& ws, RunId runId, TraceData& into);
// Copies every string of `shard` (content ids, store/StringInterner.h) into `index` under the same id, so
// that the index holds every string the shard's rows name (docs/schema.md). A string whose id is not its
// content id, or whose id the index gives another text, throws InputError naming the shard. Inside the
// caller's write transaction; O(strings x log strings), one row in memory at a time.
void copyContentStrings(const Workspace& shard, Workspace& index);

} // namespace cnp
