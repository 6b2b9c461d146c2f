#include "requests/ReleaseSummaryRequest.h"

#include "metrics/KernelMoves.h"
#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/WorkspaceSettingsReader.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <map>
#include <utility>

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
    parts.ranks = parts.steps = parts.kernels = true;
    // Per configuration its runs' kernel statistics and rank-steps (the summary keeps the top kernels).
    std::map<std::string, std::vector<std::pair<std::vector<KernelStatRow>, std::int64_t>>> kernels;
    for (const auto& run : runs) {
        AblationRun r{run, ws.runAttributes(run.id), {}};
        const bool isCompared =
            std::find(compared.begin(), compared.end(), run.info.config) != compared.end();
        if (isCompared && run.eventCount > 0) {
            RunSnapshot snap = readRunSnapshot(ws, run, in.categories, parts);
            const auto rankSteps =
                static_cast<std::int64_t>(snap.steps.empty() ? snap.ranks.size() : snap.steps.size());
            kernels[run.info.config].emplace_back(std::move(snap.kernels), rankSteps);
            r.samples = ablationSamplesOf(snap);
        }
        in.runs.push_back(std::move(r));
    }
    const AblationResult result = computeAblation(in, options);
    ReleaseSummary summary = summarizeRelease(in, result, options.skipFirstSteps);
    for (auto& c : summary.configs) {
        std::vector<RunKernelTimes> times;
        for (const auto& [rows, rankSteps] : kernels[c.config])
            times.push_back({&rows, rankSteps});
        c.kernels = kernelsPerStep(times, kMaxSummaryKernels);
    }
    return summary;
}

} // namespace cnp
