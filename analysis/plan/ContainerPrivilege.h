#pragma once
// What a plan may not hand to podman/docker `run` because it grants the container privilege over the host
// (docs/launcher.md, "Privilege"). One definition for the linter (an error at the word) and the container
// backend (it refuses to build the argv), so a plan the linter passes is one the backend runs, and a flag
// that reaches the backend another way (`cnp run --gpu-flags`) is refused all the same. Refused:
//   --privileged (any value), --cap-add (any capability but IPC_LOCK and SYS_NICE; ALL included),
//   --security-opt that unconfines (seccomp=unconfined, apparmor=unconfined, label=disable,
//   label:disable, systempaths=unconfined, unmask=…), --pid/--userns/--uts/--cgroupns=host,
//   --device other than a GPU or RDMA device (CDI names such as nvidia.com/gpu=all, /dev/nvidia*,
//   /dev/dri/*, /dev/infiniband/*), --device-cgroup-rule, --rootfs, --volumes-from, and a -v/--volume/
//   --mount of a refused host path (hostPathProblem).
// Allowed, among others: --gpus, CDI --device, --ipc=host, --network/--net (host too: NCCL over the
// host's NICs), --shm-size, --ulimit, --cap-drop, --security-opt no-new-privileges, --memory, --cpus.
#include <string>
#include <vector>

namespace cnp::plan {

struct FlagProblem {
    std::size_t word = 0; // index in the words given (the flag's own word)
    std::string message;  // names the flag and why it is refused
};

// Every privilege-granting flag among `words` (engine run options, as the plan's container.extraArgs or
// the split container.gpuFlags): `--flag=value`, `--flag value`, `-v value` and `-vvalue` forms. O(words).
std::vector<FlagProblem> privilegeGrantingFlags(const std::vector<std::string>& words);

// Empty when `hostPath` may be mounted, else why not: the host's root ("/", "//", "/."), or one of its
// system folders or anything under them (/proc, /sys, /dev, /boot, /etc, /root, /run, /var/run,
// /var/lib/docker, /var/lib/containers, /var/lib/kubelet), or an engine socket (*.sock): each hands over
// the host, read-only or not.
std::string hostPathProblem(const std::string& hostPath);

} // namespace cnp::plan
