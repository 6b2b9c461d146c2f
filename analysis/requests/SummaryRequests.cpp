#include "requests/SummaryRequests.h"

#include "metrics/Categoriser.h"
#include "metrics/RunSummaries.h"
#include "requests/WorkspaceCategories.h"
#include "store/KernelCategoryUpdater.h"
#include "store/MetaKeys.h"
#include "store/SummaryRowBuffers.h"
#include "store/Workspace.h"

#include <map>

namespace cnp {

namespace {

void buildRunSummaries(Workspace& ws, RunId runId, const TraceData& trace, const CategoryRules& rules) {
    SummaryRowBuffers rows;
    computeRunSummaries(trace, rules, rows, summaryOptionsOf(ws));
    rows.write(ws, runId);
}

} // namespace

SummaryOptions summaryOptionsOf(const Workspace& ws) {
    SummaryOptions o;
    o.stepsIncludeOrphans = ws.meta(std::string(metakeys::kStepsIncludeOrphans)).value_or("") == "1";
    return o;
}

void setStepsIncludeOrphans(Workspace& ws, bool include) {
    ws.setMeta(std::string(metakeys::kStepsIncludeOrphans), include ? "1" : "");
}

void buildRunSummaries(Workspace& ws, RunId runId, const TraceData& trace) {
    buildRunSummaries(ws, runId, trace, categoryRulesOf(ws));
}

void rebuildRunSummaries(Workspace& ws, RunId runId) {
    TraceData trace = ws.loadRun(runId);
    const CategoryRules rules = categoryRulesOf(ws);
    categoriseKernels(trace, rules);
    // Store the new categories: one update per distinct kernel name (its name rule's category), then one
    // per kernel a range rule re-categorised. Those are addressed by position: loadRun reads a run's
    // kernels in id order from its contiguous id range, so kernel i is row first + i (checked by the count).
    std::map<StringId, std::string> nameToCat;
    for (const auto& k : trace.kernels)
        if (nameToCat.find(k.name) == nameToCat.end())
            nameToCat.emplace(k.name, rules.classify(trace.strings.at(k.name)));
    KernelCategoryUpdater update(ws, runId);
    for (const auto& [name, cat] : nameToCat)
        update.setCategoryOfName(trace.strings.at(name), cat);
    if (!rules.rangeRules().empty() && update.size() == static_cast<std::int64_t>(trace.kernels.size())) {
        for (std::size_t i = 0; i < trace.kernels.size(); ++i) {
            const auto& k = trace.kernels[i];
            if (trace.strings.at(k.category) != nameToCat[k.name])
                update.setCategoryOfKernel(static_cast<std::int64_t>(i), trace.strings.at(k.category));
        }
    }
    buildRunSummaries(ws, runId, trace, rules);
}

} // namespace cnp
