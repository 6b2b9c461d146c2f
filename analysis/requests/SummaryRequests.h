#pragma once
// Building a stored run's summaries (metrics/RunSummaries.h) and storing them (store/SummaryRowBuffers.h).
// Both must run inside the caller's write transaction; the tables are created when missing.
#include "core/TraceData.h"
#include "metrics/RunSummaries.h"
#include "store/Workspace.h"

#include <cstdint>

namespace cnp {

// The workspace's summary options: meta steps_include_orphans "1" counts orphan work in step windows.
SummaryOptions summaryOptionsOf(const Workspace& ws);
// Sets that meta key (inside the caller's write transaction); the stored summaries change only when
// rebuilt (rebuildRunSummaries).
void setStepsIncludeOrphans(Workspace& ws, bool include);

// `trace` must be the normalised, categorised trace stored as run `runId`. O(n log n).
void buildRunSummaries(Workspace& ws, RunId runId, const TraceData& trace);

// Re-categorises run `runId` with the workspace's current rules (updating the stored kernel
// categories) and rebuilds its summaries, without re-reading any source file.
void rebuildRunSummaries(Workspace& ws, RunId runId);

} // namespace cnp
