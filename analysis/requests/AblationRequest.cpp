#include "requests/AblationRequest.h"

#include "requests/WorkspaceCategories.h"
#include "store/RunSnapshotReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceSettingsReader.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>

namespace cnp {

AblationInputs readAblationInputs(const Workspace& ws, const AblationOptions& options) {
    const auto snapshot = readSnapshot(ws);
    AblationInputs in;
    in.settings = readWorkspaceSettings(ws);
    in.categories = categoryOrderOf(CategoryRules::forSettings(in.settings));
    for (const auto& run : ws.runs())
        in.runs.push_back({run, ws.runAttributes(run.id), {}});
    const auto selected = selectAblation(in.settings, in.runs, options);
    RunSnapshotParts summaries;
    summaries.ranks = summaries.steps = true;
    auto has = [](const auto& v, const auto& x) { return std::find(v.begin(), v.end(), x) != v.end(); };
    for (auto& r : in.runs) {
        const bool isCompared = has(selected.runs, r.run.id) && has(selected.configs, r.run.info.config);
        if (isCompared && r.run.eventCount > 0) // an untraced run (log figures only) has no summaries
            r.samples = ablationSamplesOf(readRunSnapshot(ws, r.run, in.categories, summaries));
    }
    return in;
}

AblationResult computeAblation(const Workspace& ws, const AblationOptions& options) {
    return computeAblation(readAblationInputs(ws, options), options);
}

std::vector<AblationStudy> workspaceStudies(const Workspace& ws) {
    const auto snapshot = readSnapshot(ws);
    std::vector<StudyMember> members;
    for (const auto& run : ws.runs())
        members.push_back(studyMemberOf(run, ws.runAttributes(run.id)));
    return groupStudies(members);
}

AblationSource workspaceAblationSource(const Workspace& ws) {
    return ablationSourceOf(readWorkspaceSettings(ws));
}

} // namespace cnp
