#pragma once
// Expands a resolved plan into jobs: every selected configuration × repeat, in plan order, repeats in
// order within a configuration (traced 1..T, then untraced T+1..T+U). O(configurations × repeats).
#include "launch/JobSpec.h"

#include <string>
#include <vector>

namespace cnp::launch {

struct JobSelection {
    std::vector<std::string> configs; // empty = all, in plan order; else these (each must exist)
    int tracedRepeats = -1;           // -1 = the plan's `repeats.traced`
};

// Throws InputError naming the plan for an unknown configuration or a negative repeat count.
// `outputRoot` is the host folder under which each job gets `<outputRoot>/<runName>`.
std::vector<JobSpec> planJobs(const plan::Plan& plan, const JobSelection& selection,
                              const std::string& outputRoot);

// Lower-case letters, digits and '-', starting and ending alphanumeric, at most `max` characters;
// "x" when nothing is left.
std::string dnsLabel(const std::string& text, std::size_t max);

// The argv one node runs: the workload itself, or torchrun around it when a node has more than one GPU
// (one process per GPU). nodes == 1: torchrun --standalone; else rendezvous at `masterAddr`, the node rank
// coming from PET_NODE_RANK (set by the backend, so the argv is the same on every node); with an empty
// `masterAddr` every torchrun setting comes from the PET_* variables (the Kubeflow operator sets them).
// A command that is itself a launcher (launch/WorkloadLauncher: torchrun, deepspeed, accelerate launch,
// python -m torch.distributed.run) is returned as it is: its own arguments rule, and what it is not told
// comes from workloadEnvironment.
std::vector<std::string> nodeArgv(const JobSpec& job, const std::string& masterAddr);

// The job's environment as the workload sees it: for a command that is a launcher, the defaults it reads
// from the environment (launcherEnvironment, rendezvous at `masterAddr`), then the configuration's env,
// then (traced jobs only) the collector's; a later one wins on a clash. `collectorPath` and `outputDir`
// are as seen inside the workload; `masterAddr` as for nodeArgv.
EnvList workloadEnvironment(const JobSpec& job, const std::string& collectorPath,
                            const std::string& outputDir, const std::string& masterAddr);

// TCP port of torchrun's rendezvous on node 0.
inline constexpr int kMasterPort = 29500;

} // namespace cnp::launch
