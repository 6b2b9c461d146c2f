#pragma once
// What the HTML and the PDF report both say: options, section prose, table headers, cell texts and chart
// data built from the metrics. Both renderers take everything from here and only lay it out, so the two
// formats cannot drift apart. Plain strings are UTF-8 and unescaped.
#include "metrics/Ablation.h"
#include "report/SvgChart.h"
#include "store/Workspace.h"

#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct ReportOptions {
    AblationOptions ablation;
    std::string title = "CNP Workbench report";
    bool includeTimestamp = true; // off for reproducible (golden) output
    std::size_t topKernels = 10;
    bool compressPdf = true; // PDF only: deflate the page streams (off: plain text, for tests)
};

} // namespace cnp

namespace cnp::report {

// Section prose. The ablation intro is followed by the baseline's name and kAblationIntroEnd.
inline constexpr const char* kAblationIntro =
    "Throughput per configuration in plan order (median over all steps of all runs), with the 95% "
    "bootstrap confidence interval as error bars and the speedup over the baseline";
inline constexpr const char* kAblationIntroEnd = " above each bar.";
inline constexpr const char* kBreakdownIntro =
    "Mean step window per configuration split into exact parts (compute, exposed communication, exposed "
    "memory copies, idle; docs/metrics.md). Overlap is communication hidden under compute and is not part "
    "of the sum.";
inline constexpr const char* kAttributionIntro =
    "Change of the mean step time against the previous configuration, attributed to kernel categories and "
    "idle time (exclusive time; the parts sum exactly to the total). Negative is faster.";
inline constexpr const char* kNotSignificant = " not significant";
inline constexpr const char* kTooFewSteps = "too few steps";

// Table headers (the attribution table's are its categories plus "Total (ms)").
const std::vector<std::string>& runsHeaders();
const std::vector<std::string>& ablationHeaders();
const std::vector<std::string>& breakdownHeaders();
const std::vector<std::string>& kernelHeaders();

// "Workspace NAME · generated YYYY-MM-DD HH:MM UTC · baseline B" (no timestamp when the options say so).
std::string metaLine(const Workspace& ws, const ReportOptions& options, const std::string& baseline);

std::string ms(Ns ns); // fixed milliseconds with 2 decimals, e.g. 10'000'000 -> "10.00"
// Throughput CI bounds from the step-time CI: throughput is inversely proportional to step time.
std::pair<double, double> throughputBounds(const AblationConfig& c);
// "1.25× [1.20×, 1.31×]"; renderers mark a non-significant ratio (kNotSignificant, greyed).
std::string ratioText(const RatioWithCi& r);
// The median step's CI in ms, "12.00 – 12.50", or kTooFewSteps when the configuration has none.
std::string ciText(const AblationConfig& c);
// Palette colour of a configuration from its position in the plan order.
std::string configurationColor(const std::string& config, const std::vector<std::string>& plan);
// Attribution of one category (or "idle") vs the previous configuration; 0 when absent.
Ns attributionOf(const AblationConfig& c, const std::string& category);

// Chart data: the ablation bars (value, CI error bar, speedup annotation "1.25×" / "1.10× (n.s.)") and
// the per-configuration stacked breakdown (compute, exposed communication, exposed memory, idle; ns).
std::vector<Bar> ablationBars(const AblationResult& a, const std::vector<std::string>& plan);
std::vector<StackedBar> breakdownBars(const AblationResult& a);

// Axis helpers shared by the chart renderers: a "nice" tick step (1, 2 or 5 x 10^k) giving about `ticks`
// intervals up to maxValue, and a short tick label (0, 2.5, 40, 1.5k, 12M).
double niceStep(double maxValue, int ticks);
std::string tickLabel(double v);

} // namespace cnp::report
