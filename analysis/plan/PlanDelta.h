#pragma once
// What one resolved configuration changes relative to another (`cnp plan show`, the Plans page): the
// study reads as a chain of deltas, each configuration against its predecessor in plan order.
#include "plan/Plan.h"

#include <map>
#include <string>
#include <vector>

namespace cnp::plan {

// One changed field: `before` empty = added, `after` empty = removed. Field names: "image",
// "cudaVersion", "nodeDriverVersion", "nodePool", "privileged", "ipcHost", "deepspeedConfig",
// "env.NAME", "args", "mount /path", "nodeSelector.KEY".
struct DeltaItem {
    std::string field;
    std::string before;
    std::string after;
};

// Fields in the order above; env and nodeSelector keys sorted. O(n log n) in the number of values.
std::vector<DeltaItem> configDelta(const ConfigValues& from, const ConfigValues& to);

// A configuration's own Kubernetes pod fields as text by name ("priorityClassName", "tolerations" as
// "key=value:effect,...", "podAnnotations.KEY", ...): only those it sets.
std::map<std::string, std::string> podFieldsMap(const KubernetesPodFields& f);
// The workload's argv followed by the configuration's resolved args.
std::vector<std::string> resolvedArgv(const Plan& plan, const Configuration& c);
// `argv` for display: words that a shell would split or expand are single-quoted (display only: the
// launcher never passes argv through a shell).
std::string displayArgv(const std::vector<std::string>& argv);
// A mount as "host:/ctr:ro" (or "pvc:NAME:/ctr:rw").
std::string displayMount(const Mount& m);

} // namespace cnp::plan
