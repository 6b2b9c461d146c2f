#pragma once
// `cnp diff --step`: the step diff (requests/StepDiffRequest.h) as JSON (docs/cli.md, "cnp diff --step")
// or as text: the step-time decomposition, one line per stream pair and the largest shift jumps.
#include "requests/StepDiffRequest.h"

#include <cstddef>

namespace cnp::cli {

void printStepDiffJson(const StepDiffReport& r, bool normalized);
// `top`: the shift jumps listed (0 = all).
void printStepDiffText(const StepDiffReport& r, bool normalized, std::size_t top);

} // namespace cnp::cli
