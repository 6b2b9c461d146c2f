#include "requests/ReleaseSummaryRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/WorkspaceSettingsReader.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>

namespace cnp {

ReleaseSummary summarizeWorkspace(const Workspace& ws, const AblationOptions& requested) {
    AblationOptions options = requested;
    options.source = AblationSource::Trace; // the gate resamples traced steps, never log figures
    const auto snapshot = readSnapshot(ws);
    AblationInputs in;
    in.settings = readWorkspaceSettings(ws);
    const auto runs = ws.runs();
    in.categories = categoryOrderOf(CategoryRules::forSettings(in.settings));
    const auto compared = ablationConfigurations(in.settings, runs, options);
    RunSnapshotParts parts;
    parts.ranks = parts.steps = true;
    for (const auto& run : runs) {
        AblationRun r{run, ws.runAttributes(run.id), {}};
        const bool isCompared =
            std::find(compared.begin(), compared.end(), run.info.config) != compared.end();
        if (isCompared && run.eventCount > 0)
            r.samples = ablationSamplesOf(readRunSnapshot(ws, run, in.categories, parts));
        in.runs.push_back(std::move(r));
    }
    const AblationResult result = computeAblation(in, options);
    return summarizeRelease(in, result, options.skipFirstSteps);
}

} // namespace cnp
