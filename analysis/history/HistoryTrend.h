#pragma once
// A release history read for its trend (`cnp history show`, the workbench's Trend page, `cnp report
// --history`): the manifest's releases and every configuration x metric series with its change points
// (metrics/ReleaseTrend.h). The summaries are read one at a time, so memory is one release's summary plus
// O(releases x configurations) figures. Throws InputError naming the manifest or the summary at fault.
#include "history/HistoryManifest.h"
#include "metrics/ReleaseTrend.h"

#include <string>
#include <vector>

namespace cnp {

struct HistoryTrend {
    std::string folder;                 // the history folder as opened
    std::vector<HistoryEntry> releases; // manifest order
    std::vector<TrendSeries> series;    // config x {step_time, throughput, mfu}, first-appearance order
};

// The trend of every release of `history`. O(releases x summary size) reading, plus E-divisive per series.
ReleaseTrend releaseTrendOf(const HistoryManifest& history);
// Opens the history at `path` (its folder or manifest) and computes its trend.
HistoryTrend loadHistoryTrend(const std::string& path, const EDivisiveOptions& options = {});

} // namespace cnp
