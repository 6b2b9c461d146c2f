#pragma once
// "Predict, then measure" (docs/metrics.md): one step A -> B of an ablation, B's expectation re-timed on
// A's trace (WhatIf: the median ratio predicted / measured critical path of A's windows) and set beside
// what B measured. Pure: from the two configurations' ablation figures (summaries, never B's events) and
// the ratio a what-if on A computed (requests/PredictionRequest.h). O(categories).
#include "metrics/Ablation.h"
#include "metrics/WhatIf.h"

#include <string>

namespace cnp {

struct StepPrediction {
    std::string from, to;    // configurations A and B (B right after A in the ablation's order)
    std::string fromRun;     // the run of A whose trace the prediction re-timed
    std::string expectation; // B's expectation, canonical text (metrics/Expectation.h)
    std::string scenario;    // WhatIfScenario::describe()
    double ratio = 1;        // median over A's windows of predicted / measured critical path
    Ns fromStepNs = 0;       // A's median traced step (the ablation's figure)
    Ns predictedStepNs = 0;  // fromStepNs x ratio
    Ns measuredStepNs = 0;   // B's median traced step (the ablation's figure)
    double error = 0;        // predicted / measured - 1 (+0.03: the prediction was 3 % slower)
    // The biggest miss: the category (exclusive time per step, "idle" for the rest) whose predicted
    // change from A differs most from B's measured change (the ablation's attribution).
    std::string missCategory;
    Ns missPredictedNs = 0, missMeasuredNs = 0; // that category's change per step, predicted / measured
};

// The prediction of B from A, given the what-if ratio on A's trace. Predicted change per category: a
// category's factor f moves its exclusive time by (f - 1) x A's; `comm` the exposed communication;
// dropping recomputation removes `recompute`; the rest of the predicted change (mean step x (ratio - 1))
// is "idle" (launch overhead, kernels scaled by name, syncs). Requires B.attributionVsPreviousNs.
StepPrediction predictStep(const AblationConfig& a, const AblationConfig& b, const WhatIfScenario& scenario,
                           double ratio);

} // namespace cnp
