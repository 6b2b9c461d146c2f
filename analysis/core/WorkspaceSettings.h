#pragma once
// The workspace-wide choices a request reads along with its runs (table meta, docs/schema.md), as the
// stored text: store/WorkspaceSettingsReader.h reads them, the metrics parse them (and name `path` in
// their errors: workspace content is input like any other).
#include <optional>
#include <string>
#include <vector>

namespace cnp {

struct WorkspaceSettings {
    std::string path;                          // the workspace file
    std::vector<std::string> planOrder;        // configurations in plan order (Workspace::planOrder)
    std::optional<std::string> planOrderMeta;  // meta plan_order: the plan's own order, when one was given
    std::optional<std::string> ablationSource; // meta ablation_source: "trace" or "log"
    std::optional<std::string> categoryRules;  // meta category_rules: a rule document (JSON)
    std::optional<std::string> mfuFlopsPerToken, mfuPeakFlops; // meta mfu_flops_per_token, mfu_peak_flops
};

} // namespace cnp
