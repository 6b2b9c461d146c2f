#pragma once
// The timeline diff of one step of two stored runs (docs/metrics.md, "Step diff"): in one read transaction,
// each run's chosen step on the chosen rank is read (store/StepEventReader), its GPU activities kept (those
// launched by an API call inside the step's CPU range, the step's GPU work by docs/metrics.md "Steps and
// windows") and the two aligned (metrics/StepAlignment). Memory: one step of one rank per run.
#include "core/Ids.h"
#include "metrics/StepAlignment.h"

#include <optional>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

struct StepDiffChoice {
    std::optional<std::int32_t> step; // the step number in both runs; unset: each run's median step
    std::optional<std::int32_t> rank; // the rank in both runs; unset: each run's first rank
    StepAlignmentOptions alignment;
};

struct StepDiffSide {
    std::string run;
    std::int32_t rank = 0;
    std::int32_t step = -1;
    Ns cpuStart = 0, cpuEnd = 0;       // the step's CPU range
    std::int32_t steps = 0;            // steps of the rank with GPU work
    std::vector<std::int32_t> numbers; // their step numbers, in time order
};

struct StepDiffReport {
    StepDiffSide a, b;
    bool median = false; // the steps are each run's median step
    StepAlignment alignment;
};

// Throws InputError naming the cause: an unknown run, a rank or step the run lacks, a run without steps.
StepDiffReport diffSteps(const Workspace& ws, const std::string& runA, const std::string& runB,
                         const StepDiffChoice& choice);
StepDiffReport diffSteps(const Workspace& ws, RunId runA, RunId runB, const StepDiffChoice& choice);

} // namespace cnp
