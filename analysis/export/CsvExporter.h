#pragma once
// Writes one run as a folder of RFC 4180 CSV files (CsvWriter), one per event table and one per
// summary, each with a header row; names are resolved to text, times are integer ns:
//   ranks.csv, kernels.csv, memcpys.csv, memsets.csv, api_calls.csv, cpu_ranges.csv,
//   gpu_annotations.csv, flows.csv, counters.csv, steps.csv                       (events)
//   kernel_stats.csv (per kernel name: all ranks, then each rank of a multi-rank run),
//   breakdown_per_rank.csv, breakdown_per_step.csv, idle_gaps.csv                 (summaries)
// The event files' columns are their tables' value columns (store/Tables.h), in table order, written
// by these rules: a `*_id` string column as the string under the name without `_id`, an enum column
// as its name (toString), a JSON array as its elements joined by ';', an ARGB column as `<name>_argb`,
// and `duration_ns` (end - start) after `end_ns`.
// Summary files come from RunSummaryReader (store/) and are skipped, with a note, when the
// run has no stored summaries. Each file appears atomically (OutputFile). O(events) time,
// O(1) memory beyond the TraceData.
#include "core/TraceData.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

class CsvWriter;
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
    using FileBody = std::function<void(CsvWriter&)>;
    using WriteFile = std::function<void(const std::string& name, const FileBody& body)>;
    void writeEventFiles(const WriteFile& file) const;
    void writeKernelStats(const WriteFile& file) const;
    void writeBreakdowns(const WriteFile& file) const; // breakdown_per_rank.csv, breakdown_per_step.csv
    void writeIdleGaps(const WriteFile& file) const;

    const TraceData& trace_;
    const RunSummaryReader* summaries_;
};

} // namespace cnp
