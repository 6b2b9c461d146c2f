#pragma once
// Distributed launchers a workload command may already start itself: `torchrun …`, `python -m
// torch.distributed.run …` (or the older `torch.distributed.launch`), `deepspeed …`, `accelerate launch …`.
// Such a command spawns one process per GPU on its own, so cnp must not wrap it in torchrun a second time
// (that ran `torchrun … --no-python torchrun …`: GPUs × GPUs processes). The command is then passed through
// verbatim and cnp only supplies, in the environment, what the launcher reads there (docs/launcher.md).
#include "launch/CollectorEnvironment.h"

#include <string>
#include <vector>

namespace cnp::launch {

enum class WorkloadLauncher {
    None,       // a program or a python script: cnp wraps it in torchrun when a node has several GPUs
    Torchrun,   // torchrun, python -m torch.distributed.run / torch.distributed.launch
    DeepSpeed,  // deepspeed, python -m deepspeed.launcher.runner
    Accelerate, // accelerate launch, python -m accelerate.commands.launch
};

// Which launcher `command` starts, by its program's base name (and for `python…`, the `-m` module after
// the interpreter's own options). Leading `env NAME=VALUE…` is not looked through. O(words).
WorkloadLauncher workloadLauncher(const std::vector<std::string>& command);

// "torchrun", "deepspeed", "accelerate", "" for None.
const char* launcherName(WorkloadLauncher launcher);

// What cnp adds to the environment of a command that is a launcher, under the configuration's own env
// (which wins): torchrun reads an option it is not given on its command line from PET_<OPTION>, so for
// Torchrun PET_NNODES and PET_NPROC_PER_NODE (the plan's nodes and GPUs per node; torchrun's own default
// is one process), and on several nodes PET_MASTER_ADDR = `masterAddr` and PET_MASTER_PORT = `masterPort`
// (the node rank is PET_NODE_RANK, which the Kubernetes backend sets per pod). Empty for the other
// launchers (they find their GPUs themselves; on Kubernetes MASTER_ADDR, MASTER_PORT, NODE_RANK and
// WORLD_SIZE are set for every command) and when `masterAddr` is empty (the Kubeflow operator sets PET_*).
EnvList launcherEnvironment(WorkloadLauncher launcher, int nodes, int gpusPerNode,
                            const std::string& masterAddr, int masterPort);

} // namespace cnp::launch
