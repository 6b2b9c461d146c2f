#include "history/HistoryGate.h"

#include "history/ReleaseSummaryJson.h"
#include "metrics/ReleaseTrend.h"

namespace cnp {

BaselineWindow historyBaselineWindow(const HistoryManifest& history, std::size_t base, std::size_t size,
                                     std::vector<ReleaseSummary>& store) {
    const auto& entries = history.entries();
    const std::size_t first = base + 1 > size ? base + 1 - size : 0;
    ReleaseTrend trend;
    store.clear();
    store.reserve(base + 1 - first); // the window points into it: no reallocation after the first push
    for (std::size_t i = 0; i <= base; ++i) {
        ReleaseSummary s = readReleaseSummary(history.summaryPath(entries[i]).string());
        trend.addRelease(entries[i].release, s);
        if (i >= first)
            store.push_back(std::move(s));
    }
    BaselineWindow w;
    for (std::size_t i = first; i <= base; ++i) {
        w.releases.push_back(&store[i - first]);
        w.names.push_back(entries[i].release);
    }
    for (const auto& series : trend.series())
        if (series.metric == "step_time" && !series.changes.empty())
            w.lastReleasesOf[series.config] = base + 1 - series.changes.back().index;
    return w;
}

ReleaseCheck checkHistoryRelease(const HistoryManifest& history, std::size_t candidate, std::size_t size,
                                 const std::vector<GateMetric>& metrics, const GateOptions& options) {
    const auto& entries = history.entries();
    if (candidate == 0 || candidate >= entries.size()) {
        ReleaseCheck none;
        none.problems.push_back(candidate == 0 ? "the first release has no earlier release to compare with"
                                               : "no such release in the history");
        return none;
    }
    std::vector<ReleaseSummary> store;
    const BaselineWindow window = historyBaselineWindow(history, candidate - 1, size, store);
    const ReleaseSummary newer = readReleaseSummary(history.summaryPath(entries[candidate]).string());
    return checkRelease(window, newer, metrics, options);
}

} // namespace cnp
