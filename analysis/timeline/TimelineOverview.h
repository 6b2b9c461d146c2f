#pragma once
// A coarse, small copy of a run's TimelineModel for the first paint: every lane's events merged per
// time bucket. The buckets form a grid aligned to the absolute clock (OverviewGrid.h): their width is
// the smallest power of two (ns) >= the run's span / `buckets`, so the span touches between about
// buckets / 2 and buckets + 1 of them (at 8192 buckets a bucket is narrower than one pixel column of a
// 1920-px overview, so the overview draws like the full model there), and grids of different spans nest
// (OverviewMerge.h builds a run's overview from per-rank parts on that). A merged event spans
// [first start, last end] of its bucket's events, takes the name of the longest one and the style
// holding most busy time; a counter keeps each bucket's lowest, highest and last sample
// (mergeCounterPerBucket). Stored in the workspace (table timeline_overview, one BLOB per run, written
// at ingest; the GUI never writes it) so that opening a run paints in milliseconds while the full
// events load in the background. Size: <= rows x lanes x (buckets + 1) events (~22 bytes each serialised)
// plus counter rows x 3 (buckets + 1) samples (16 bytes each).
#include "store/Workspace.h"
#include "timeline/TimelineModel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cnp::timeline {

TimelineModel makeOverview(const TimelineModel& full, int buckets = 8192);

// Creates the table when missing and replaces the run's overview. Needs a read-write workspace.
void storeOverview(Workspace& ws, const TimelineModel& overview);
// The stored overview of `runId`, or nullopt when there is none (or it is from another format).
std::optional<TimelineModel> loadOverview(const Workspace& ws, RunId runId);
bool hasOverview(const Workspace& ws, RunId runId);

// The stored encoding itself (format overviewFormat(): zlib-compressed), for an overview kept elsewhere (a
// shard's part, table shard_part). decodeOverview reads format `format` (the current one, or format 1 of
// workspaces and shards written before it: readsOverviewFormat); nullopt for truncated, foreign or
// inconsistent bytes; the model's runId is unset and its groups not collapsed. O(bytes).
std::int64_t overviewFormat();
bool readsOverviewFormat(std::int64_t format);
std::string encodeOverview(const TimelineModel& overview);
std::optional<TimelineModel> decodeOverview(std::string_view bytes, std::int64_t format = overviewFormat());

} // namespace cnp::timeline
