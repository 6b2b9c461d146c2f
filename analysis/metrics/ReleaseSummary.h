#pragma once
// What one release's study reduces to for its history (docs/metrics.md, "Release history"): per
// configuration the ablation's figures (median step time with CI, throughput, MFU) and the per-step samples
// the regression gate resamples (step times and each category's exclusive time per step, per run, warm-up
// steps skipped). A history caches one per release (history/ReleaseSummaryJson.h), so `cnp history show`
// and `cnp check` never re-open a study. Memory: O(configs x categories x steps), steps capped per run.
#include "core/TraceData.h"
#include "metrics/Ablation.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

// At most this many steps per run are kept (the first ones after warm-up): bounds a summary's size.
inline constexpr std::size_t kMaxSummaryStepsPerRun = 4096;

// At most this many kernels per configuration are kept (those with the most time per step): bounds a
// summary's size while naming every kernel that can dominate a step-time change.
inline constexpr std::size_t kMaxSummaryKernels = 64;

// A kernel's GPU time per step of a configuration: its total time over every rank of the configuration's
// runs divided by their rank-steps (the sum over runs of ranks x steps; a run without step markers counts
// one step per rank). Kernel statistics cover each run's whole trace, warm-up steps included.
struct ReleaseKernel {
    std::string name;
    double nsPerStep = 0;
};

struct ConfigReleaseSummary {
    std::string config;
    std::int32_t worldSize = 1;
    std::vector<std::string> runs;
    Ns medianStepNs = 0;
    bool hasCi = false;
    Ns ciLoNs = 0, ciHiNs = 0; // 95% bootstrap CI of the median (Ablation)
    double throughput = 0;     // in throughputUnit, at the median step time
    double throughputCiLo = 0, throughputCiHi = 0;
    std::string throughputUnit; // "tokens/s" or "steps/s"
    std::optional<double> mfu;  // fraction of peak at the median step time
    std::vector<std::vector<Ns>> stepTimesByRun;
    // Exclusive categories (with "idle") and per category its per-step ns, per run, aligned with
    // stepTimesByRun: categorySteps[c][run][step].
    std::vector<std::string> categories;
    std::vector<std::vector<std::vector<Ns>>> categorySteps;
    // The kernels with the most time per step, largest first, at most kMaxSummaryKernels; empty in a
    // summary written before kernels were kept (the gate then names no kernels).
    std::vector<ReleaseKernel> kernels;

    std::size_t stepCount() const;
    // The mean per-step exclusive ns of category `c` over every kept step (0 when none).
    double categoryMeanNs(std::size_t c) const;
    // Index of `category` in categories, or categories.size().
    std::size_t categoryIndex(const std::string& category) const;
};

struct ReleaseSummary {
    std::vector<ConfigReleaseSummary> configs;              // plan order
    bool synthetic = false;                                 // a run of the study was flagged synthetic
    std::string driverVersion, cudaVersion, containerImage; // of the first run that records them

    const ConfigReleaseSummary* config(const std::string& name) const;
};

// From an ablation's inputs and its result (computeAblation(inputs, options) with the same options'
// skipFirstSteps): figures from the result, per-step samples from the inputs. O(runs x steps x categories).
ReleaseSummary summarizeRelease(const AblationInputs& inputs, const AblationResult& result,
                                int skipFirstSteps);

} // namespace cnp
