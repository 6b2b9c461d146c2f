#pragma once
// The difference of two stored runs (metrics/RunDiff.h), their summaries read in one read transaction.
#include "metrics/RunDiff.h"
#include "store/Workspace.h"

#include <string>

namespace cnp {

// Throws InputError when a run does not exist or has no summaries. By name at the CLI's edge; by id
// where the run was picked from a run list (the GUI), so a rename in between cannot lose it.
RunDiffResult diffRuns(const Workspace& ws, const std::string& runA, const std::string& runB,
                       const RunDiffOptions& options = {});
RunDiffResult diffRuns(const Workspace& ws, RunId runA, RunId runB, const RunDiffOptions& options = {});

} // namespace cnp
