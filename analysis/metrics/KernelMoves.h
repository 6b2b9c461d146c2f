#pragma once
// The kernels that moved most between two releases of a configuration (`cnp check`, docs/metrics.md,
// "Regression gate"): from the per-step kernel times a release summary keeps (ReleaseKernel), the kernels
// whose time per step changed most in absolute terms, with both times and their share of the change of the
// median step time. Also the reduction of a configuration's runs' kernel statistics to those per-step
// times. Pure. O(k log k) for k kernels.
#include "core/RunSummaryTypes.h"
#include "metrics/ReleaseSummary.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

struct KernelMove {
    std::string kernel;
    double baselineNsPerStep = 0, candidateNsPerStep = 0; // 0: not among that release's kept kernels
    bool hasShare = false;
    double share = 0; // delta / (candidate - baseline median step time), when the step time moved
    double deltaNs() const { return candidateNsPerStep - baselineNsPerStep; }
};

// A step-time change smaller than this fraction of the baseline's median has no meaningful share.
inline constexpr double kMinStepChangeForShare = 0.001;

// The `top` kernels of largest |delta| (ties: name order), kernels unchanged left out. A kernel kept on
// one side only counts 0 on the other (it was below that side's kept kernels, so its delta is an upper
// bound in magnitude). stepDeltaNs: candidate - baseline median step time (ns); baselineStepNs > 0 enables
// shares. Empty when either side keeps no kernels (a summary of an older format).
std::vector<KernelMove> kernelMoves(const std::vector<ReleaseKernel>& baseline,
                                    const std::vector<ReleaseKernel>& candidate, double baselineStepNs,
                                    double stepDeltaNs, std::size_t top);

// One run's kernel statistics (all ranks together) and its rank-steps (ranks x steps, >= 1).
struct RunKernelTimes {
    const std::vector<KernelStatRow>* kernels = nullptr;
    std::int64_t rankSteps = 1;
};

// The `top` kernels of most time per step over `runs` (sum of totals / sum of rank-steps), largest first
// (ties: name order). O(k log k) over the k distinct kernel names.
std::vector<ReleaseKernel> kernelsPerStep(const std::vector<RunKernelTimes>& runs, std::size_t top);

} // namespace cnp
