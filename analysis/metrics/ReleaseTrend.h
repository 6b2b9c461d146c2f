#pragma once
// The trend of a release history (docs/metrics.md, "Change points"): per configuration the median step
// time, throughput and MFU of every release with their 95% CIs, and the change points E-divisive finds in
// each series. Built one release at a time (only the figures are kept, never the per-step samples), so
// memory is O(releases x configurations). Pure.
#include "metrics/EDivisive.h"
#include "metrics/ReleaseSummary.h"

#include <string>
#include <vector>

namespace cnp {

struct TrendPoint {
    std::string release;
    bool present = false; // the release has this configuration and figure
    double value = 0, lo = 0, hi = 0;
};

struct TrendSeries {
    std::string config, metric; // metric: "step_time" (ns), "throughput" (its unit), "mfu" (fraction)
    std::string unit;
    std::vector<TrendPoint> points;   // one per release, history order
    std::vector<ChangePoint> changes; // indices into points
};

class ReleaseTrend {
public:
    // Appends a release; configurations keep the order of their first appearance.
    void addRelease(const std::string& release, const ReleaseSummary& summary);
    // Every configuration x metric series with its change points (E-divisive over the present points).
    std::vector<TrendSeries> series(const EDivisiveOptions& options = {}) const;
    const std::vector<std::string>& releases() const { return releases_; }

private:
    struct Row {
        std::string config;
        std::vector<TrendSeries> metrics; // step_time, throughput, mfu
    };
    Row& rowOf(const std::string& config);
    std::vector<std::string> releases_;
    std::vector<Row> rows_;
};

} // namespace cnp
