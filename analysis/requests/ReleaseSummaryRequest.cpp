#include "requests/ReleaseSummaryRequest.h"

#include "metrics/KernelMoves.h"
#include "requests/AblationRequest.h"
#include "store/RunSnapshotReader.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <map>
#include <utility>

namespace cnp {

ReleaseSummary summarizeWorkspace(const Workspace& ws, const AblationOptions& requested) {
    AblationOptions options = requested;
    options.source = AblationSource::Trace; // the gate resamples traced steps, never log figures
    const AblationInputs in = readAblationInputs(ws, options);
    const auto selected = selectAblation(in.settings, in.runs, options);
    auto has = [](const auto& v, const auto& x) { return std::find(v.begin(), v.end(), x) != v.end(); };
    // Per compared configuration its traced runs' kernel statistics and rank-steps (the summary keeps the
    // top kernels), read in one more read transaction.
    std::map<std::string, std::vector<std::pair<std::vector<KernelStatRow>, std::int64_t>>> kernels;
    {
        const auto snapshot = readSnapshot(ws);
        RunSnapshotParts parts;
        parts.ranks = parts.steps = parts.kernels = true;
        for (const auto& r : in.runs) {
            if (!has(selected.runs, r.run.id) || !has(selected.configs, r.run.info.config) ||
                r.run.eventCount == 0)
                continue;
            RunSnapshot snap = readRunSnapshot(ws, r.run, in.categories, parts);
            const auto rankSteps =
                static_cast<std::int64_t>(snap.steps.empty() ? snap.ranks.size() : snap.steps.size());
            kernels[r.run.info.config].emplace_back(std::move(snap.kernels), rankSteps);
        }
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
