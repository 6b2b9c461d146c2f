#pragma once
// The one layout of the kernel statistics CSV: `cnp export --format csv`'s kernel_stats.csv and the
// Kernels page's "Export CSV…" both write it. One header row, then one row per kernel name:
//   scope,name,category,count,total_ns,mean_ns,median_ns,min_ns,max_ns,stddev_ns,percent
// scope is "all" (every rank of the run) or "rank N"; times are ns (integers exact, means and medians
// in the shortest form that reads back, CsvWriter); percent is of the scope's total kernel time (0-100).
#include "export/CsvWriter.h"
#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

class KernelStatsCsv {
public:
    static void header(CsvWriter& csv);
    // `scopeRank` < 0 is the whole run ("all").
    static void row(CsvWriter& csv, std::int32_t scopeRank, const KernelStatRow& k);
    // Header + rows into `path`, which appears only when complete (OutputFile). Returns the data rows.
    // Throws InputError naming `path` when it cannot be written.
    static std::int64_t write(const std::string& path, std::int32_t scopeRank,
                              const std::vector<const KernelStatRow*>& rows);
};

} // namespace cnp
