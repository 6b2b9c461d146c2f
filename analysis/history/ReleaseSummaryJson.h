#pragma once
// A release summary (metrics/ReleaseSummary.h) as the history caches it, HISTORY/summaries/RELEASE.json:
//   {"format": "cnp-release-summary", "version": 1, "synthetic": false, "driver": "", "cuda": "",
//    "image": "", "configs": [{"config", "worldSize", "runs": [...], "medianStepNs", "hasCi", "ciLoNs",
//    "ciHiNs", "throughput", "throughputCiLo", "throughputCiHi", "throughputUnit", "mfu" (or null),
//    "categories": [...], "stepTimesByRun": [[ns...]...], "categorySteps": [[[ns...]...]...],
//    "kernels": [{"name", "nsPerStep"}...]}]}
// "kernels" (the top kernels by time per step, metrics/ReleaseSummary.h) is optional on read, so a summary
// written before it was kept still reads (version 1 either way; readers of version 1 ignore it).
// Untrusted on read: at most kMaxSummaryBytes, 256 configurations, 1024 runs each, 256 categories,
// kMaxSummaryStepsPerRun steps per run, every ns a non-negative integer, the category arrays shaped as
// the step arrays, at most kMaxSummaryKernels kernels of names up to 4096 bytes. Errors name the file and the
// cause.
#include "metrics/ReleaseSummary.h"

#include <cstddef>
#include <string>

namespace cnp {

inline constexpr std::size_t kMaxSummaryBytes = std::size_t{64} * 1024 * 1024;

std::string releaseSummaryToJson(const ReleaseSummary& summary);
// Throws InputError naming `path`.
ReleaseSummary releaseSummaryFromJson(const std::string& text, const std::string& path);
// Reads `path` (bounded) and parses it. Throws InputError.
ReleaseSummary readReleaseSummary(const std::string& path);
// Writes `path` atomically (temporary file renamed into place), creating its folder. Throws InputError.
void writeReleaseSummary(const ReleaseSummary& summary, const std::string& path);

} // namespace cnp
