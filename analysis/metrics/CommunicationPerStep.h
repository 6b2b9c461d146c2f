#pragma once
// Communication efficiency per step (docs/metrics.md, "Collectives"): per step index, the mean over the
// ranks that ran it of the step window's exposed communication (communication with no compute beside it)
// and overlapped communication (hidden behind compute), from the step summaries' breakdowns.
// Pure; O(step summaries).
#include "core/RunSummaryTypes.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cnp {

struct StepCommunication {
    std::int32_t step = 0;
    std::int32_t ranks = 0;             // ranks with GPU work in the step
    Ns exposedNs = 0, overlappedNs = 0; // means over those ranks (ns, rounded down)
    // overlapped / (exposed + overlapped); nullopt without communication.
    std::optional<double> overlapShare() const {
        const Ns total = exposedNs + overlappedNs;
        return total > 0
                   ? std::optional<double>(static_cast<double>(overlappedNs) / static_cast<double>(total))
                   : std::nullopt;
    }
};

// In step order; steps without GPU work on any rank are left out.
std::vector<StepCommunication> communicationPerStep(const std::vector<StepSummary>& steps);

} // namespace cnp
