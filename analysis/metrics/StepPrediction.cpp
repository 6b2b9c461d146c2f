#include "metrics/StepPrediction.h"

#include "metrics/Expectation.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace cnp {

namespace {

Ns exclusiveOf(const AblationConfig& c, const std::string& category) {
    for (const auto& [name, ns] : c.exclusiveMeanNs)
        if (name == category)
            return ns;
    return 0;
}

Ns scaled(Ns ns, double factor) {
    return static_cast<Ns>(std::llround(static_cast<double>(ns) * (factor - 1.0)));
}

// Predicted change per step of each category of A's exclusive time under the scenario; the remainder of
// `total` goes to "idle".
std::map<std::string, Ns> predictedChanges(const AblationConfig& a, const WhatIfScenario& s, Ns total) {
    std::map<std::string, Ns> change;
    for (const auto& [category, factor] : s.categoryFactors)
        change[category] += scaled(exclusiveOf(a, category), factor);
    if (s.exposedCommunicationFactor != 1.0)
        change["communication"] += scaled(exclusiveOf(a, "communication"), s.exposedCommunicationFactor);
    if (s.dropRecomputation)
        change["recompute"] -= exclusiveOf(a, "recompute");
    Ns named = 0;
    for (const auto& [category, ns] : change)
        if (category != "idle")
            named += ns;
    change["idle"] += total - named;
    return change;
}

} // namespace

StepPrediction predictStep(const AblationConfig& a, const AblationConfig& b, const WhatIfScenario& scenario,
                           double ratio) {
    StepPrediction p;
    p.from = a.config;
    p.to = b.config;
    p.expectation = formatExpectation(scenario);
    p.scenario = scenario.describe();
    p.ratio = ratio;
    p.fromStepNs = a.tracedMedianStepNs;
    p.predictedStepNs = static_cast<Ns>(std::llround(static_cast<double>(a.tracedMedianStepNs) * ratio));
    p.measuredStepNs = b.tracedMedianStepNs;
    p.error = b.tracedMedianStepNs > 0
                  ? static_cast<double>(p.predictedStepNs) / static_cast<double>(b.tracedMedianStepNs) - 1.0
                  : 0.0;
    const Ns predictedTotal = scaled(a.meanStepNs, ratio);
    std::map<std::string, Ns> predicted = predictedChanges(a, scenario, predictedTotal);
    std::map<std::string, Ns> measured;
    if (b.attributionVsPreviousNs)
        for (const auto& [category, ns] : *b.attributionVsPreviousNs)
            measured[category] += ns;
    // The union of categories, in name order: the first of equal misses wins (deterministic).
    std::map<std::string, int> all;
    for (const auto& [c, ns] : predicted)
        all[c] = 0;
    for (const auto& [c, ns] : measured)
        all[c] = 0;
    Ns worst = -1;
    for (const auto& [c, unused] : all) {
        const Ns miss = std::llabs(measured[c] - predicted[c]);
        if (miss > worst) {
            worst = miss;
            p.missCategory = c;
            p.missPredictedNs = predicted[c];
            p.missMeasuredNs = measured[c];
        }
    }
    return p;
}

} // namespace cnp
