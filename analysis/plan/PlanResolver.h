#pragma once
// `extends:` semantics (docs/plans.md): a configuration is its parent's resolved values overlaid by its
// own. Env by name (a redefined name keeps its place, takes the new value), args appended, mounts by
// container path, nodeSelector by key, scalars replaced when set; `nodePool` also sets
// nodeSelector[nodePoolLabel]. A parent must be written earlier in the plan, so resolution is one pass.
#include "plan/Plan.h"
#include "plan/PlanFinding.h"

#include <string>
#include <vector>

namespace cnp::plan {

ConfigValues overlay(const ConfigValues& parent, const ConfigValues& own, const std::string& nodePoolLabel);

// Fills Configuration::resolved for every configuration in plan order. Unknown, later, self or cyclic
// parents are "extends" errors (the configuration then resolves as a root, so later checks still run).
void resolveConfigurations(Plan& plan, std::vector<Finding>& findings);

} // namespace cnp::plan
