#pragma once
// Finds training steps (docs/metrics.md, "Windows").
// A step is a CPU range (user annotation, cpu_op, NVTX or other; never python_function) whose name
// matches the step pattern. Patterns are tried in order and the first one that matches any range of
// the trace is used for every rank, so all ranks agree on what a step is. A matching range nested
// inside another matching range of the same rank is dropped (outermost wins).
// GPU projection, per rank: step i's gpuStart = earliest start of any kernel/memcpy/memset whose
// correlation id belongs to an API call starting inside step i's CPU range [cpuStart, cpuEnd]
// (any thread of the rank: backward kernels are launched from autograd threads).
// Window i = [gpuStart(i), gpuStart(next step with GPU work)); the last step with GPU work ends at the
// latest end of its own GPU work. Steps without GPU work keep gpuStart = gpuEnd = -1.
// Numbering (StepRange::index), one scheme per run: the number the step's name ends with (ProfilerStep#3
// is step 3) when every step has one and they increase within each rank, else the 0-based ordinal. Every
// output (timeline, insights, align at step, JSON) shows this index; ranks are matched by it.
// Complexity: O(n log n) in the number of API calls, CPU ranges and GPU activities.
#include "core/TraceData.h"

#include <string>
#include <vector>

namespace cnp {

struct StepPattern {
    std::vector<std::string> patterns = {R"(^ProfilerStep#\d+$)", R"(^(train_)?step\b)"};
    bool ordinalNumbers = false; // number every step by its ordinal, whatever its name ends with
};

// What detectSteps decided for a trace: the index of the pattern its steps matched (-1: none matched),
// and whether they are numbered by their names. A run read in parts (ingest/RunStreamer) checks that
// every part decided as the whole run would have (StepSchemes), else detects again with the run's
// decision imposed.
struct StepScheme {
    int pattern = -1;
    bool numberedByName = false;
};

// Replaces trace.steps; returns the decision. Patterns are case-sensitive RE2 (core/NameRegex.h), searched
// anywhere in the name. Throws InputError (file "step pattern") when a pattern is not a valid regex.
StepScheme detectSteps(TraceData& trace, const StepPattern& pattern = {});

} // namespace cnp
