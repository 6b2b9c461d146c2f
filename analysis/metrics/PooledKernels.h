#pragma once
// Kernel statistics of a configuration pooled over all of its runs (repeats), normalised per GPU-step so
// that configurations with different repeat, step or rank counts compare (docs/metrics.md, "Kernels of a
// configuration"). Reads summaries only: O(runs x (kernel names + steps)).
#include "core/RunSnapshot.h"
#include "core/TraceData.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

struct PooledKernelRow {
    std::string name, category;
    std::int64_t count = 0; // calls over every run and rank
    Ns totalNs = 0;         // kernel time over every run and rank
    double perCallNs = 0;   // totalNs / count
    double perStepNs = 0;   // totalNs / PooledKernels::gpuSteps
    double callsPerStep = 0;
    double percent = 0; // of PooledKernels::totalNs
};

struct PooledKernels {
    std::size_t runs = 0;
    // Sum over runs and ranks of the rank's steps with GPU work; a rank with GPU work but no step counts
    // as one step (its whole trace). 0 only when no run has GPU work.
    std::int64_t gpuSteps = 0;
    Ns totalNs = 0;                    // all kernel time of all runs
    std::vector<PooledKernelRow> rows; // by totalNs descending, then name
};

// Every kernel name of `runs` (each snapshot with its ranks, steps and kernels; requests/
// PooledKernelsRequest.h reads them).
PooledKernels poolKernels(const std::vector<RunSnapshot>& runs);

} // namespace cnp
