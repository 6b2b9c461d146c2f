#pragma once
// The launcher's one entry point to the plan parser: a plan file read, resolved and checked, or an error.
#include "plan/Plan.h"

#include <string>

namespace cnp::launch {

// Reads and resolves `path`. Throws InputError whose message lists the plan's findings
// ("FILE:LINE:COL: error: RULE: message", one per line) when any is an error.
plan::Plan loadPlanOrThrow(const std::string& path);

} // namespace cnp::launch
