#include "requests/PredictionRequest.h"

#include "core/InputError.h"
#include "metrics/Expectation.h"
#include "requests/CriticalPathRequest.h"
#include "store/Workspace.h"

#include <stdexcept>

namespace cnp {

std::string expectationOf(const Workspace& ws, const AblationConfig& config,
                          const std::map<std::string, std::string>& overrides) {
    if (const auto it = overrides.find(config.config); it != overrides.end())
        return it->second;
    for (const RunId id : config.runIds)
        if (auto text = ws.runAttribute(id, kExpectAttribute); text && !text->empty())
            return *text;
    return {};
}

AblationPredictions predictAblation(const Workspace& ws, const AblationResult& ablation,
                                    const std::map<std::string, std::string>& overrides) {
    AblationPredictions out;
    for (std::size_t i = 1; i < ablation.configs.size(); ++i) {
        const AblationConfig& a = ablation.configs[i - 1];
        const AblationConfig& b = ablation.configs[i];
        const std::string text = expectationOf(ws, b, overrides);
        if (text.empty())
            continue;
        const ExpectationParse parsed = parseExpectation(text);
        if (!parsed.ok()) {
            out.notes.push_back(b.config + ": its expectation '" + text + "' is not used: " + parsed.error);
            continue;
        }
        if (a.runs.empty() || !b.attributionVsPreviousNs) {
            out.notes.push_back(b.config + ": no traced run of " + a.config + " to predict it from");
            continue;
        }
        // Only A's run is read: the prediction never sees the run it predicts.
        WhatIfReport whatIf;
        try {
            whatIf = computeWhatIf(ws, a.runs.front(), WindowChoice{}, parsed.scenario);
        } catch (const std::exception& e) {
            out.notes.push_back(b.config + ": cannot re-time " + a.runs.front() + ": " + e.what());
            continue;
        }
        StepPrediction p = predictStep(a, b, parsed.scenario, whatIf.ratio);
        p.fromRun = a.runs.front();
        out.steps.push_back(std::move(p));
    }
    return out;
}

} // namespace cnp
