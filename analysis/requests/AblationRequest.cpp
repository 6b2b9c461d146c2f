#include "requests/AblationRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceSettingsReader.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>

namespace cnp {

AblationResult computeAblation(const Workspace& ws, const AblationOptions& options) {
    const auto snapshot = readSnapshot(ws);
    AblationInputs in;
    in.settings = readWorkspaceSettings(ws);
    const auto runs = ws.runs();
    in.categories = categoryOrderOf(CategoryRules::forSettings(in.settings));
    const auto compared = ablationConfigurations(in.settings, runs, options);
    RunSnapshotParts summaries;
    summaries.ranks = summaries.steps = true;
    for (const auto& run : runs) {
        AblationRun r{run, ws.runAttributes(run.id), {}};
        const bool isCompared =
            std::find(compared.begin(), compared.end(), run.info.config) != compared.end();
        if (isCompared && run.eventCount > 0) // an untraced run (log figures only) has no summaries
            r.samples = ablationSamplesOf(readRunSnapshot(ws, run, in.categories, summaries));
        in.runs.push_back(std::move(r));
    }
    return computeAblation(in, options);
}

AblationSource workspaceAblationSource(const Workspace& ws) {
    return ablationSourceOf(readWorkspaceSettings(ws));
}

} // namespace cnp
