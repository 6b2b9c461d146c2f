#pragma once
// `extends:` semantics (docs/plans.md): a configuration is its parent's resolved values overlaid by its
// own. Env by name (a redefined name keeps its place, takes the new value), args appended, mounts by
// container path, nodeSelector by key, scalars replaced when set; `nodePool` also sets
// nodeSelector[nodePoolLabel]. A parent must be written earlier in the plan, so resolution is one pass.
#include "plan/Plan.h"
#include "plan/PlanFinding.h"

#include <cstddef>
#include <string>
#include <vector>

namespace cnp::plan {

ConfigValues overlay(const ConfigValues& parent, const ConfigValues& own, const std::string& nodePoolLabel);

// The longest `extends` chain below a root (issue 33.5): each configuration's resolved values hold its
// ancestors' env, args and mounts, so an unbounded chain made resolution quadratic (a 243 KB plan of 3,639
// chained configurations: 38 s, 2.6 GB and 514 MB of `plan show --json`). Real ablations chain a few.
inline constexpr std::size_t kMaxExtendsDepth = 32;

// Fills Configuration::resolved for every configuration in plan order. Unknown, later, self or cyclic
// parents, and a chain deeper than kMaxExtendsDepth, are "extends" errors (the configuration then resolves
// as a root, so later checks still run). O(configurations x kMaxExtendsDepth x values per configuration).
void resolveConfigurations(Plan& plan, std::vector<Finding>& findings);

// The plan's `kubernetes:` options with the pod fields configuration `configName` resolves to applied
// (KubernetesPodFields: set ones replace, podAnnotations and extraResources merge by key): what its jobs'
// pods get. The plan's own options for an unknown name. After resolveConfigurations.
KubernetesOptions kubernetesFor(const Plan& plan, const std::string& configName);

} // namespace cnp::plan
