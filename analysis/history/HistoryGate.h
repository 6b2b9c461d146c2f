#pragma once
// The regression gate over a history folder (`cnp check`, the workbench's Trend page; docs/metrics.md,
// "Regression gate"): the baseline window of releases up to a reference release, each configuration's cut
// after the last change point of its step time, and the gate of a release of the history itself against
// the releases before it. Reads the summaries one at a time for the trend; keeps only the window's.
// Throws InputError naming the manifest or a summary.
#include "history/HistoryManifest.h"
#include "metrics/ReleaseComparison.h"

#include <cstddef>
#include <vector>

namespace cnp {

// `cnp check --window` default.
inline constexpr std::size_t kDefaultGateWindow = 5;

// The last `size` releases up to entry `base` (inclusive) and, per configuration, only those after the
// last change point of its step time (E-divisive over releases 0 .. base). `store` keeps the window's
// summaries alive (the window points into it). Requires base < entries().size(), size >= 1.
BaselineWindow historyBaselineWindow(const HistoryManifest& history, std::size_t base, std::size_t size,
                                     std::vector<ReleaseSummary>& store);

// Gates release `candidate` (an index into the history's entries, >= 1) against the `size` releases
// before it, as `cnp check CANDIDATE-STUDY --against HISTORY --baseline-release <the one before>` would
// with the candidate's stored summary. A candidate of index 0 has no baseline: one problem, exit 2.
ReleaseCheck checkHistoryRelease(const HistoryManifest& history, std::size_t candidate, std::size_t size,
                                 const std::vector<GateMetric>& metrics, const GateOptions& options);

} // namespace cnp
