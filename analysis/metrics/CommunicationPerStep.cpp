#include "metrics/CommunicationPerStep.h"

#include <map>

namespace cnp {

std::vector<StepCommunication> communicationPerStep(const std::vector<StepSummary>& steps) {
    struct Sums {
        std::int32_t ranks = 0;
        Ns exposed = 0, overlapped = 0;
    };
    std::map<std::int32_t, Sums> byStep;
    for (const auto& s : steps) {
        if (!s.hasGpu())
            continue;
        auto& sum = byStep[s.index];
        ++sum.ranks;
        sum.exposed += s.breakdown.communication;
        sum.overlapped += s.breakdown.overlap;
    }
    std::vector<StepCommunication> out;
    out.reserve(byStep.size());
    for (const auto& [step, sum] : byStep)
        out.push_back({step, sum.ranks, sum.exposed / sum.ranks, sum.overlapped / sum.ranks});
    return out;
}

} // namespace cnp
