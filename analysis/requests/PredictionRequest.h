#pragma once
// "Predict, then measure" over a workspace's ablation (docs/metrics.md): for each configuration B right
// after A in the ablation's order that states an expectation (run attribute `plan.expect` of B's runs, or
// an override), B's expectation is re-timed on A's trace (requests/CriticalPathRequest.h, computeWhatIf on
// A's first run: only A's events are read, never B's) and set beside B's measured figures
// (metrics/StepPrediction.h). One what-if per predicted step: O(A's windows x their graphs).
#include "metrics/Ablation.h"
#include "metrics/StepPrediction.h"

#include <map>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

inline constexpr const char* kExpectAttribute = "plan.expect";

struct AblationPredictions {
    std::vector<StepPrediction> steps; // in the ablation's order
    std::vector<std::string> notes;    // expectations that could not be used, and why
};

// The expectation of `config`: `overrides[config]` when given, else the first of its runs' `plan.expect`
// attributes (by `runIds` order); "" when none.
std::string expectationOf(const Workspace& ws, const AblationConfig& config,
                          const std::map<std::string, std::string>& overrides = {});

// The predictions of every step of `ablation` whose later configuration has an expectation. An
// expectation that does not parse, or an A without a trace to re-time, becomes a note (the step is left
// out), never an exception: the ablation stands without it.
AblationPredictions predictAblation(const Workspace& ws, const AblationResult& ablation,
                                    const std::map<std::string, std::string>& overrides = {});

} // namespace cnp
