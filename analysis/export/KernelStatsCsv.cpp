#include "export/KernelStatsCsv.h"

#include "export/OutputFile.h"

namespace cnp {

void KernelStatsCsv::header(CsvWriter& csv) {
    for (const char* h : {"scope", "name", "category", "count", "total_ns", "mean_ns", "median_ns", "min_ns",
                          "max_ns", "stddev_ns", "percent"})
        csv.field(h);
    csv.endRow();
}

void KernelStatsCsv::row(CsvWriter& csv, std::int32_t scopeRank, const KernelStatRow& k) {
    csv.field(scopeRank < 0 ? std::string("all") : "rank " + std::to_string(scopeRank));
    csv.field(k.name).field(k.category).field(k.count).field(k.totalNs).field(k.meanNs).field(k.medianNs);
    csv.field(k.minNs).field(k.maxNs).field(k.stddevNs).field(k.percent);
    csv.endRow();
}

std::int64_t KernelStatsCsv::write(const std::string& path, std::int32_t scopeRank,
                                   const std::vector<const KernelStatRow*>& rows) {
    OutputFile out(path);
    CsvWriter csv(out);
    header(csv);
    for (const KernelStatRow* k : rows)
        row(csv, scopeRank, *k);
    out.commit();
    return csv.rows() - 1;
}

} // namespace cnp
