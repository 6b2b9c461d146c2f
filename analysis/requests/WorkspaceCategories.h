#pragma once
// The one place a request compiles the workspace's category rules (metrics/CategoryRules.h), and the
// summary reader that orders exclusive time by them.
#include "core/CategoryOrder.h"
#include "metrics/CategoryRules.h"
#include "store/RunSummaryReader.h"
#include "store/Workspace.h"

#include <cstdint>

namespace cnp {

// The workspace's rules (meta category_rules), else resources/rules/categories.json, else the defaults.
// Throws InputError naming the workspace for a stored rule document that does not parse.
CategoryRules categoryRulesOf(const Workspace& ws);
// The exclusive-priority order of `rules`.
CategoryOrder categoryOrderOf(const CategoryRules& rules);
// A summary reader of run `runId` ordered by the workspace's rules (one compile per call).
RunSummaryReader summaryReaderOf(const Workspace& ws, RunId runId);

} // namespace cnp
