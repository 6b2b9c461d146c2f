#include "metrics/ReleaseTrend.h"

namespace cnp {
namespace {

const char* const kTrendMetrics[] = {"step_time", "throughput", "mfu"};

TrendPoint pointOf(const std::string& release, const ConfigReleaseSummary& c, std::size_t metric) {
    TrendPoint p{release, false, 0, 0, 0};
    const double median = static_cast<double>(c.medianStepNs);
    const double lo = c.hasCi ? static_cast<double>(c.ciLoNs) : median;
    const double hi = c.hasCi ? static_cast<double>(c.ciHiNs) : median;
    if (metric == 0 && median > 0)
        p = {release, true, median, lo, hi};
    else if (metric == 1 && c.throughput > 0)
        p = {release, true, c.throughput, c.hasCi ? c.throughputCiLo : c.throughput,
             c.hasCi ? c.throughputCiHi : c.throughput};
    else if (metric == 2 && c.mfu && *c.mfu > 0 && hi > 0 && lo > 0)
        // MFU is inversely proportional to the step time: its CI is the step time's mapped through 1/x.
        p = {release, true, *c.mfu, *c.mfu * median / hi, *c.mfu * median / lo};
    return p;
}

} // namespace

ReleaseTrend::Row& ReleaseTrend::rowOf(const std::string& config) {
    for (auto& r : rows_)
        if (r.config == config)
            return r;
    Row& r = rows_.emplace_back();
    r.config = config;
    for (const char* m : kTrendMetrics) {
        TrendSeries s;
        s.config = config;
        s.metric = m;
        for (const auto& rel : releases_) // earlier releases lack the configuration
            s.points.push_back({rel, false, 0, 0, 0});
        r.metrics.push_back(std::move(s));
    }
    return r;
}

void ReleaseTrend::addRelease(const std::string& release, const ReleaseSummary& summary) {
    for (const auto& c : summary.configs)
        rowOf(c.config);
    releases_.push_back(release);
    for (auto& row : rows_) {
        const ConfigReleaseSummary* c = summary.config(row.config);
        for (std::size_t m = 0; m < row.metrics.size(); ++m) {
            TrendSeries& s = row.metrics[m];
            s.points.push_back(c ? pointOf(release, *c, m) : TrendPoint{release, false, 0, 0, 0});
            if (c && m == 0)
                s.unit = "ns";
            else if (c && m == 1 && !c->throughputUnit.empty())
                s.unit = c->throughputUnit;
            else if (m == 2)
                s.unit = "fraction";
        }
    }
}

std::vector<TrendSeries> ReleaseTrend::series(const EDivisiveOptions& options) const {
    const EDivisive detector(options);
    std::vector<TrendSeries> out;
    for (const auto& row : rows_)
        for (TrendSeries s : row.metrics) {
            std::vector<double> values;
            std::vector<std::size_t> at; // index in points of each value
            for (std::size_t i = 0; i < s.points.size(); ++i)
                if (s.points[i].present) {
                    values.push_back(s.points[i].value);
                    at.push_back(i);
                }
            for (ChangePoint cp : detector.detect(values)) {
                cp.index = at[cp.index];
                s.changes.push_back(cp);
            }
            out.push_back(std::move(s));
        }
    return out;
}

} // namespace cnp
