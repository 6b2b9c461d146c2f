#pragma once
// Reads one run's events from a workspace into a TimelineModel. Meant for a background thread: it
// opens its own read-only connection to the workspace file, reports progress in [0, 1] and honours the
// sink's cancel flag (throws Cancelled). Cost: one sequential pass over each event table's rows of the
// run (one sequential id range per table, docs/schema.md), then TimelineBuilder::build (O(n log n)).
#include "store/Workspace.h"
#include "timeline/TimelineModel.h"

#include <string>

namespace cnp::timeline {

// Throws InputError naming the workspace when the run does not exist.
TimelineModel loadTimeline(const std::string& workspacePath, RunId runId, const ProgressSink& sink = {});
// Same, on an open workspace connection (tests, single-threaded tools).
TimelineModel loadTimeline(const Workspace& ws, RunId runId, const ProgressSink& sink = {});

} // namespace cnp::timeline
