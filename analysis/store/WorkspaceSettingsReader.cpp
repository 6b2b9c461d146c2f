#include "store/WorkspaceSettingsReader.h"

#include "store/MetaKeys.h"
#include "store/WorkspaceTransactions.h"

namespace cnp {

WorkspaceSettings readWorkspaceSettings(const Workspace& ws) {
    const auto snapshot = readSnapshot(ws);
    auto meta = [&](std::string_view key) { return ws.meta(std::string(key)); };
    WorkspaceSettings s;
    s.path = ws.path();
    s.planOrder = ws.planOrder();
    s.planOrderMeta = meta(metakeys::kPlanOrder);
    s.ablationSource = meta(metakeys::kAblationSource);
    s.categoryRules = meta(metakeys::kCategoryRules);
    s.mfuFlopsPerToken = meta(metakeys::kMfuFlopsPerToken);
    s.mfuPeakFlops = meta(metakeys::kMfuPeakFlops);
    return s;
}

} // namespace cnp
