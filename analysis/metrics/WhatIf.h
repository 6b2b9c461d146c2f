#pragma once
// What-if on a window's dependency graph (docs/metrics.md, "What-if"): transformations re-weight its edges
// and the longest path re-times the window, in the manner of Daydream (USENIX ATC 2020). O(V + E) per
// window and scenario.
#include "metrics/DependencyGraph.h"

#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct WhatIfScenario {
    // Duration factors (>= 0) of GPU activities: by category name ("gemm", "communication", "memory"...)
    // and by kernel-name substring. A name match applies after (and instead of) its category's factor.
    std::vector<std::pair<std::string, double>> categoryFactors;
    std::vector<std::pair<std::string, double>> kernelFactors;
    bool removeLaunchOverhead = false;       // launch calls' own time and launch delays to 0 (as CUDA graphs)
    double exposedCommunicationFactor = 1.0; // communication kernels' durations (only exposed ones matter)
    bool dropRecomputation = false;          // "recompute" kernels and their launches removed
    std::vector<std::string> removedSyncs;   // blocking calls (name substring, or "all") no longer wait

    bool empty() const;
    std::string describe() const; // one line, for reports
};

class WhatIf {
public:
    // The graph's edge weights transformed by `scenario` (negative: the edge is removed).
    static std::vector<Ns> weightsOf(const DependencyGraph& graph, const WhatIfScenario& scenario);
    // The window's predicted length under the scenario: the longest path with those weights.
    static Ns predictedLength(const DependencyGraph& graph, const WhatIfScenario& scenario);
};

} // namespace cnp
