#pragma once
// Seeded percentile bootstrap (docs/metrics.md, "Ablation"). Deterministic across platforms: uses the
// SplitMix64 generator with rejection sampling of metrics/SeededRandom.h (shared with the regression gate
// and E-divisive) instead of <random> distributions, whose output differs between standard libraries. Every
// call restarts from the seed, so a CI depends only on its inputs, never on call order. Cost: O(resamples x n
// log n).
#include <cstdint>
#include <vector>

namespace cnp {

struct ConfidenceInterval {
    double lo = 0, hi = 0;
    bool excludes(double v) const { return v < lo || v > hi; }
};

class Bootstrap {
public:
    static constexpr std::uint64_t kDefaultSeed = 0x5eedc0ffee5eedULL;
    static constexpr int kDefaultResamples = 2000;

    explicit Bootstrap(std::uint64_t seed = kDefaultSeed, int resamples = kDefaultResamples,
                       double confidence = 0.95);

    // Median (mean of the two middle values for an even count); 0 for an empty input.
    static double median(std::vector<double> v);
    // CI of the median of `values`.
    ConfidenceInterval medianCi(const std::vector<double>& values) const;
    // CI of median(numerator) / median(denominator), both resampled independently.
    ConfidenceInterval ratioOfMediansCi(const std::vector<double>& numerator,
                                        const std::vector<double>& denominator) const;

    // Hierarchical versions for repeated runs: `groups` holds one vector of step values per run. Each
    // resample draws as many runs as there are, with replacement, then each drawn run's steps with
    // replacement, and takes the median of the pooled draw, so the CI carries run-to-run variance as well
    // as step-to-step variance. With one group they equal the single-level functions above.
    ConfidenceInterval medianCi(const std::vector<std::vector<double>>& groups) const;
    ConfidenceInterval ratioOfMediansCi(const std::vector<std::vector<double>>& numerator,
                                        const std::vector<std::vector<double>>& denominator) const;
    int resamples() const { return resamples_; }

private:
    ConfidenceInterval percentiles(std::vector<double>& stats) const;
    std::uint64_t seed_;
    int resamples_;
    double confidence_;
};

} // namespace cnp
