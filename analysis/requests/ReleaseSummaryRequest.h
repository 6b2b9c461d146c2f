#pragma once
// A workspace's release summary (metrics/ReleaseSummary.h): its ablation (traced step windows) and the
// per-step samples of the compared configurations' runs, read in one read transaction, one run's
// summaries in memory at a time (as requests/AblationRequest.h).
#include "metrics/ReleaseSummary.h"
#include "store/Workspace.h"

namespace cnp {

// Throws InputError (naming the workspace) as computeAblation does: no runs, an unknown configuration.
ReleaseSummary summarizeWorkspace(const Workspace& ws, const AblationOptions& options = {});

} // namespace cnp
