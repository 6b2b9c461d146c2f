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

// The body of the trend report without the page around it (the releases' table, the legend and one chart
// per series under an <hN> heading of level `headingLevel`): `cnp report --history` puts it in its own
// section. Nothing in it refers to the page's style.
std::string trendSectionHtml(const std::vector<HistoryEntry>& releases,
                             const std::vector<TrendSeries>& series, int headingLevel);
std::string trendReportHtml(const std::vector<HistoryEntry>& releases, const std::vector<TrendSeries>& series,
                            const std::string& title);

} // namespace cnp
