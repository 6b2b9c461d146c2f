#pragma once
// Insights of one stored run (metrics/Insights.h) and the release-note checks of its metadata
// (metrics/EnvironmentChecks.h), each from one snapshot of the run read in one read transaction.
#include "metrics/EnvironmentChecks.h"
#include "metrics/Insights.h"
#include "store/Workspace.h"

#include <string>
#include <vector>

namespace cnp {

// Throws InputError when the run does not exist or has no summaries. Most severe first. By name at the
// CLI's edge; by id where the run was picked from a run list (the GUI).
std::vector<Insight> computeInsights(const Workspace& ws, const std::string& runName,
                                     const InsightOptions& options = {});
std::vector<Insight> computeInsights(const Workspace& ws, RunId runId, const InsightOptions& options = {});
std::vector<EnvironmentCheck> checkEnvironment(const Workspace& ws, const RunRecord& run);

} // namespace cnp
