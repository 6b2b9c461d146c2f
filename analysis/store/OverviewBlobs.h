#pragma once
// The stored bytes of a run's timeline overview (table timeline_overview, store/Tables.h). Their
// encoding belongs to the timeline layer (timeline/TimelineOverview.cpp); the store keeps one blob per
// run, tagged with the encoding's format number, and never interprets it.
#include "store/Workspace.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace cnp {

// Replaces the run's overview (creating the table in workspaces older than it). Inside the caller's
// write transaction.
void writeOverviewBlob(Workspace& ws, RunId runId, std::int64_t format, std::string_view bytes);

// Whether the run has an overview of this format; false when the table does not exist.
bool hasOverviewBlob(const Workspace& ws, RunId runId, std::int64_t format);

// Calls `use` with the run's overview bytes, valid only during the call (no copy); false when none
// (also when the table does not exist).
bool readOverviewBlob(const Workspace& ws, RunId runId,
                      const std::function<void(const char* data, std::size_t size)>& use);

} // namespace cnp
