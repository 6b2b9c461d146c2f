#pragma once
// The launcher's one entry point to the plan parser: a plan file read, resolved and linted, or an error.
#include "plan/Plan.h"
#include "plan/PlanFinding.h"

#include <string>
#include <vector>

namespace cnp::launch {

// Reads, resolves and lints `path` (plan/PlanLint: lint runs before every `cnp run`). Throws InputError
// naming the plan, with every finding as "FILE:LINE:COL: SEVERITY: RULE: message" on its own line, when
// any finding is an error; `warnings`, when given, receives the findings that are not.
plan::Plan loadPlanOrThrow(const std::string& path, std::vector<plan::Finding>* warnings = nullptr);

} // namespace cnp::launch
