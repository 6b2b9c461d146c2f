#include "requests/WorkspaceCategories.h"

#include "store/WorkspaceSettingsReader.h"

namespace cnp {

CategoryRules categoryRulesOf(const Workspace& ws) {
    return CategoryRules::forSettings(readWorkspaceSettings(ws));
}

CategoryOrder categoryOrderOf(const CategoryRules& rules) {
    return CategoryOrder::fromComputePriority(rules.computePriority());
}

RunSummaryReader summaryReaderOf(const Workspace& ws, RunId runId) {
    return RunSummaryReader(ws, runId, categoryOrderOf(categoryRulesOf(ws)));
}

} // namespace cnp
