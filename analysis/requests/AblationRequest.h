#pragma once
// The ablation of a workspace (metrics/Ablation.h): its settings, runs and the summaries of the compared
// configurations' runs read in one read transaction, one run's summaries in memory at a time.
#include "metrics/Ablation.h"
#include "store/Workspace.h"

namespace cnp {

// The inputs of the ablation `options` asks for, read in one read transaction: every run with its
// attributes, samples only for the runs of the selected study and configurations (selectAblation).
AblationInputs readAblationInputs(const Workspace& ws, const AblationOptions& options);
// Throws as the metric does (InputError naming the workspace).
AblationResult computeAblation(const Workspace& ws, const AblationOptions& options = {});
// The ablation studies of the workspace's runs, newest first (metrics/AblationStudies.h).
std::vector<AblationStudy> workspaceStudies(const Workspace& ws);
// The workspace's choice (meta key `ablation_source`), Trace when unset.
AblationSource workspaceAblationSource(const Workspace& ws);

} // namespace cnp
