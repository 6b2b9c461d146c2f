#pragma once
// The kernel changes between two configurations, each pooled over all of its runs (PooledKernels): kernels
// matched by exact name, compared per GPU-step, classed by the run diff's rule (kernelChangeClass) applied
// to the per-step values, sorted by |delta per step| descending, then name. O(kernel names log names).
#include "metrics/PooledKernels.h"
#include "metrics/RunDiff.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

struct PooledKernelChange {
    std::string name;
    std::string category; // A's when present, else B's
    std::string cls;      // "added", "removed", "faster", "slower", "unchanged"
    double callsPerStepA = 0, callsPerStepB = 0;
    double perStepA = 0, perStepB = 0; // ns of the kernel per GPU-step
    double delta() const { return perStepB - perStepA; }
};

struct PooledKernelDiff {
    std::int64_t added = 0, removed = 0, faster = 0, slower = 0, unchanged = 0;
    std::vector<PooledKernelChange> kernels;
};

PooledKernelDiff diffPooledKernels(const PooledKernels& a, const PooledKernels& b,
                                   const RunDiffOptions& options = {});

} // namespace cnp
