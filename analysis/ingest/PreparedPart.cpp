#include "ingest/PreparedPart.h"

#include "core/NameBound.h"
#include "ingest/IngestPipeline.h"
#include "metrics/Categoriser.h"
#include "metrics/RunSummaries.h"
#include "timeline/OverviewMerge.h"
#include "timeline/TimelineBuilder.h"
#include "timeline/TimelineOverview.h"

#include <chrono>

namespace cnp {

PreparedPart preparePart(TraceData&& part, const CategoryRules& rules, const StepPattern& steps,
                         KernelStatsPool& pool, const SummaryOptions& summary) {
    PreparedPart p;
    p.trace = std::move(part);
    auto last = std::chrono::steady_clock::now();
    auto mark = [&](const char* phase) {
        const auto now = std::chrono::steady_clock::now();
        p.seconds.emplace_back(phase, std::chrono::duration<double>(now - last).count());
        last = now;
    };
    TraceData& t = p.trace;
    normaliseTrace(t);
    categoriseKernels(t, rules);
    mark("normalise, categorise");
    p.steps = detectSteps(t, steps);
    mark("steps");
    computeRunSummaries(t, rules, p.summaries, &pool, summary);
    mark("summaries");
    p.overview =
        timeline::makeOverview(timeline::TimelineBuilder::fromTrace(t, {}, timeline::BusyRows::Always));
    mark("overview");
    if (countTruncatedNames(t.strings) > 0)
        for (StringId k = 0; k < t.strings.size(); ++k)
            if (isTruncatedName(t.strings.at(k)))
                p.truncatedNames.insert(t.strings.at(k));
    return p;
}

} // namespace cnp
