#pragma once
// Values a plan hands to Kubernetes, checked as the API server would check them (issue 28: `memory: lots`
// and `cpu: "-3"` passed the lint and reached the cluster). One definition serves the linter (rules
// `kubernetes-quantity`, `kubernetes-label`) and the Kubernetes backend, which refuses the same.
//  - A resource quantity (k8s.io/apimachinery resource.Quantity): a signed decimal number — digits with an
//    optional fraction — then one suffix: a binary SI one (Ki Mi Gi Ti Pi Ei), a decimal SI one (m "" k M G
//    T P E) or a decimal exponent (e or E and a signed integer). A request or limit must not be negative.
//  - A label key: an optional prefix (a DNS subdomain: lower-case alphanumerics, '-' and '.', at most 253
//    characters) and '/', then a name of at most 63 characters, alphanumerics with '-', '_' or '.' inside.
//  - A label value: empty, or a name as above.
// O(length) each.
#include "plan/Plan.h"

#include <string>
#include <vector>

namespace cnp::plan {

// Empty when `quantity` is a non-negative Kubernetes quantity, else why not.
std::string quantityProblem(const std::string& quantity);

// Empty when `key` is a valid label key (also a qualified resource name such as nvidia.com/gpu), else why.
std::string labelKeyProblem(const std::string& key);

// Empty when `value` is a valid label value, else why not.
std::string labelValueProblem(const std::string& value);

// One plan-level value the cluster would refuse, or that cnp does not pass.
struct ValueProblem {
    std::string
        key; // the value's dotted key in Plan::positions ("resources.cpu", "kubernetes.tolerations.0")
    const char* rule; // "kubernetes-quantity", "kubernetes-label", "kubernetes-value" or "privileged"
    std::string message;
};

// Every such problem of `plan`'s resources and kubernetes blocks: quantities (cpu, memory and their
// limits, shmSizeLimit, helperCpu, helperMemory, extraResources' counts), label-syntax keys (gpuResource,
// nodePoolLabel, extraResources, podAnnotations), tolerations (operator Equal or Exists, a known effect,
// no value with Exists) and addCapabilities (only IPC_LOCK and SYS_NICE: anything else grants privilege).
std::vector<ValueProblem> kubernetesValueProblems(const Plan& plan);

} // namespace cnp::plan
