#include "history/HistoryTrend.h"

#include "history/ReleaseSummaryJson.h"

namespace cnp {

ReleaseTrend releaseTrendOf(const HistoryManifest& history) {
    ReleaseTrend trend;
    for (const auto& e : history.entries()) // one summary in memory at a time
        trend.addRelease(e.release, readReleaseSummary(history.summaryPath(e).string()));
    return trend;
}

HistoryTrend loadHistoryTrend(const std::string& path, const EDivisiveOptions& options) {
    const HistoryManifest history = HistoryManifest::open(path);
    HistoryTrend out;
    out.folder = history.folder().string();
    out.releases = history.entries();
    out.series = releaseTrendOf(history).series(options);
    return out;
}

} // namespace cnp
