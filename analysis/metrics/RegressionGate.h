#pragma once
// The regression gate of `cnp check` (docs/metrics.md, "Regression gate"): is a metric of a candidate
// release worse than the baseline release's by more than a tolerance, beyond what step-to-step noise
// explains? The statistic is the ratio of medians candidate / baseline of per-step values (step time,
// throughput, MFU or a category's exclusive time per step); its confidence interval comes from a circular
// moving-block bootstrap (Künsch 1989; Politis & Romano 1992) inside each run, because step times are
// skewed (stragglers) and autocorrelated (a slow GPU stays slow, warm-up drifts): an i.i.d. bootstrap
// would understate the variance of the median. Block length ceil(n^(1/3)) for a run of n steps.
// Run-to-run and release-to-release variation (another cluster draw, another node) is not in one run's
// steps: the caller passes the spread of the metric between the baseline's releases (`releaseSd`, the sd of
// log medians x sqrt(1 + 1/K) for K releases), which widens the CI in quadrature on the log scale by
// t(K - 1) x releaseSd (Student's t quantile: K medians estimate the spread with K - 1 degrees of freedom).
// Verdict: Regression when the CI lies on the worse side of 1 (significant) and the point estimate is
// worse than the tolerance; Improvement symmetrically; CannotJudge with fewer than kMinGateSamples steps on
// either side or a baseline median of 0. Pure and deterministic (seeded). O(resamples x n log n).
#include "metrics/Bootstrap.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

// Fewer steps than this on either side (pooled over its runs, after warm-up is skipped): cannot judge.
// With 10 steps, block length 3, a 95% percentile CI rests on ~4 blocks per run: the least that gives a
// usable interval (tst_regressiongate shows 9 refused, 10 judged).
inline constexpr std::size_t kMinGateSamples = 10;

enum class GateVerdict { NoChange, Regression, Improvement, CannotJudge };
const char* toString(GateVerdict v);

struct GateOptions {
    double tolerance = 0.02; // relative: 0.02 = 2 %
    int resamples = 2000;
    std::uint64_t seed = Bootstrap::kDefaultSeed;
    double confidence = 0.95;
};

struct GateOutcome {
    GateVerdict verdict = GateVerdict::CannotJudge;
    double baselineMedian = 0, candidateMedian = 0;
    double ratio = 0;      // candidateMedian / baselineMedian (0 when not judged)
    ConfidenceInterval ci; // of the ratio, block bootstrap
    std::size_t baselineSteps = 0, candidateSteps = 0;
    double releaseSd = 0; // the between-release spread that widened the CI (log scale)
    std::string reason;   // why CannotJudge, else empty
};

class RegressionGate {
public:
    explicit RegressionGate(GateOptions options = {});

    // `baseline` and `candidate` hold per-step values, one vector per run (steps in order). higherIsWorse:
    // true for times (a ratio above 1 + tolerance is a regression), false for throughput and MFU (a ratio
    // below 1 - tolerance is). Each call restarts from the seed: the outcome depends on its inputs only.
    // releaseSd >= 0: see above (0: the CI is the block bootstrap's alone); releaseDof: its degrees of
    // freedom (K - 1), 0 for the normal quantile.
    GateOutcome compare(const std::vector<std::vector<double>>& baseline,
                        const std::vector<std::vector<double>>& candidate, bool higherIsWorse,
                        double releaseSd = 0, int releaseDof = 0) const;
    // The standard normal quantile z with P(|Z| <= z) = confidence (0 < confidence < 1).
    static double twoSidedZ(double confidence);
    // Student's t quantile with P(|T| <= t) = confidence for `dof` degrees of freedom (dof <= 0: the normal
    // quantile): exact for 1 and 2 degrees of freedom (closed forms), from 3 on the Cornish-Fisher expansion
    // in 1/dof (Hill 1970, to the 1/dof^4 term), within 0.2 % of the exact quantile at 95 %.
    static double twoSidedT(double confidence, int dof);

    // Block length of the bootstrap for a run of n steps: ceil(cbrt(n)), at least 1.
    static std::size_t blockLength(std::size_t n);
    const GateOptions& options() const { return options_; }

private:
    GateOptions options_;
};

} // namespace cnp
