#pragma once
// The trend report of a release history (`cnp history show --html FILE`, docs/cli.md): one self-contained
// HTML page (no script, no external resource) with the releases' table and, per configuration and metric,
// an inline SVG chart of the value of every release with its 95% CI as a whisker and every change point
// (metrics/ReleaseTrend.h) as a dashed red line before the first release of the new segment, labelled with
// the ratio of the segment means and its p-value. Every text from the history is XML-escaped. O(series x
// releases).
#include "history/HistoryManifest.h"
#include "metrics/ReleaseTrend.h"

#include <string>
#include <vector>

namespace cnp {

std::string trendReportHtml(const std::vector<HistoryEntry>& releases, const std::vector<TrendSeries>& series,
                            const std::string& title);

} // namespace cnp
