#pragma once
// Writes one run as a folder of RFC 4180 CSV files (CsvWriter), one per event table and one per
// summary, each with a header row; names are resolved to text, times are integer ns:
//   ranks.csv, kernels.csv, memcpys.csv, memsets.csv, api_calls.csv, cpu_ranges.csv,
//   gpu_annotations.csv, flows.csv, counters.csv, steps.csv                       (events)
//   kernel_stats.csv (per kernel name: all ranks, then each rank of a multi-rank run),
//   breakdown_per_rank.csv, breakdown_per_step.csv, idle_gaps.csv                 (summaries)
// Summary files come from RunSummaryReader (metrics/) and are skipped, with a note, when the
// run has no stored summaries. Each file appears atomically (OutputFile). O(events) time,
// O(1) memory beyond the TraceData.
#include "core/TraceData.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

class RunSummaryReader;

struct CsvExportResult {
    std::vector<std::pair<std::string, std::int64_t>> files; // (file name, data rows)
    std::vector<std::string> notes;
};

class CsvExporter {
public:
    // `summaries` may be null (event tables only).
    CsvExporter(const TraceData& trace, const RunSummaryReader* summaries)
        : trace_(trace), summaries_(summaries) {}
    // Creates `dir` when missing. Throws InputError naming the file that cannot be written.
    CsvExportResult write(const std::string& dir) const;

private:
    const TraceData& trace_;
    const RunSummaryReader* summaries_;
};

} // namespace cnp
