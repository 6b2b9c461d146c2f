#pragma once
// Ablation across configurations (docs/metrics.md, "Ablation"): per configuration the median step time
// with its bootstrap CI, throughput, MFU, speedup vs the baseline and gain vs the previous configuration
// (each with a CI and a significance flag), mean per-step breakdown and exclusive time, and the
// attribution of the step-time delta to categories and idle, summing exactly to the total delta.
// Reads summaries only: O(runs x steps) plus the bootstrap (O(resamples x steps log steps)).
#include "core/TraceData.h"
#include "metrics/Bootstrap.h"
#include "metrics/RunSummaryReader.h"
#include "store/Workspace.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct AblationOptions {
    std::string baseline;           // empty: the first configuration in order
    std::vector<std::string> order; // empty: the workspace's plan order; else exactly these configs
    double tokensPerStep = 0;       // > 0 overrides the runs' metadata
    double flopsPerStep = 0;        // > 0 overrides the runs' metadata (model FLOPs per step, whole job)
    double peakFlops = 0;           // > 0 overrides the runs' metadata (peak FLOP/s of one GPU)
    int skipFirstSteps = 0;         // steps dropped at the start of every run (warm-up)
    int resamples = Bootstrap::kDefaultResamples;
    std::uint64_t seed = Bootstrap::kDefaultSeed;
};

struct RatioWithCi {
    double value = 0;
    ConfidenceInterval ci95;
    bool significant = false; // the CI excludes 1
};

struct AblationConfig {
    std::string config;
    std::vector<std::string> runs;
    std::vector<Ns> stepTimesNs; // every step of every run (multi-rank: max over ranks)
    Ns medianStepNs = 0;         // rounded to the nearest ns
    Ns ciLoNs = 0, ciHiNs = 0;   // 95% bootstrap CI of the median
    Ns meanStepNs = 0;           // rounded mean; == sum of exclusiveNs and of the breakdown parts
    double throughput = 0;
    double throughputCiLo = 0, throughputCiHi = 0; // 95% CI: the step-time CI mapped through 1/x
    std::string throughputUnit;                    // "tokens/s" or "steps/s"
    std::optional<double> mfu;                     // fraction of peak, when FLOPs per step and peak are known
    std::int32_t worldSize = 1;
    RatioWithCi speedupVsBaseline;
    std::optional<RatioWithCi> gainVsPrevious;          // nullopt for the first configuration
    BreakdownNs breakdownMeanNs;                        // per-step mean, parts sum to meanStepNs
    ExclusiveNs exclusiveMeanNs;                        // per-step mean, sums to meanStepNs
    std::optional<ExclusiveNs> attributionVsPreviousNs; // per category + idle; sums to total
    Ns attributionTotalNs = 0;                          // meanStepNs - previous meanStepNs
};

struct AblationResult {
    std::string baseline;
    std::vector<AblationConfig> configs;
    std::vector<std::string> categories; // exclusive categories in priority order, "idle" last
};

// Throws InputError when a requested configuration or the baseline has no runs, or when the workspace
// has no runs at all.
AblationResult computeAblation(const Workspace& ws, const AblationOptions& options = {});

// Integer apportionment used for exact partitions of means: returns q with sum(q) == round(sum(sums)/n)
// and |q[i] - sums[i]/n| < 1 (largest-remainder rounding). Negative sums are allowed.
std::vector<Ns> apportionMeans(const std::vector<Ns>& sums, std::int64_t n);

} // namespace cnp
