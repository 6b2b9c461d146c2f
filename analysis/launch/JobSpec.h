#pragma once
// One job of `cnp run`: a configuration × repeat of a plan, backend-neutral. Every backend turns it into
// processes, containers or Kubernetes objects (one pod per node). Values are the plan's literal text: they
// go into argv arrays and environment entries, never through a shell.
#include "launch/CollectorEnvironment.h"
#include "plan/Plan.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cnp::launch {

struct JobSpec {
    std::string planPath; // the plan file: named in every error about this job
    std::string config;   // configuration name
    int repeat = 1;       // 1-based; traced repeats first, then the untraced ones
    bool traced = true;   // false: an overhead-measuring repeat, run without the collector
    std::string runName;  // "<config>-r<repeat>": the workspace run it becomes
    std::string jobName;  // DNS-1123 label, at most kMaxJobNameLength: container and Kubernetes names
    std::vector<std::string> command; // workload argv: the plan's command, then the configuration's args
    EnvList env;                      // the configuration's env, later entries of a name already merged
    std::vector<plan::Mount> mounts;
    std::map<std::string, std::string> nodeSelector; // nodePool folded in
    std::string image;
    std::string workingDir;
    bool ipcHost = true;
    int nodes = 1;
    int gpusPerNode = 1;
    int timeoutSeconds = 0; // 0 = none
    std::string capture;    // CNP_CAPTURE, canonical form
    std::string outputDir;  // host folder of this job: traces (*.cnpt) and logs (*.log)
    // This attempt's folder on a shared trace volume (Kubernetes: <pvc>/<job>/<attempt>/), so an earlier
    // attempt's traces never mix into this one's: "attempt-<n>-<8 hex>", n as in the local folder an
    // attempt is moved aside to (<outputDir>.attempt-<n>), the hex random, so a number used again after
    // the local folders were deleted still names a new folder. Set by the orchestrator when it starts the
    // job; "attempt-1" in a planned job (what --dry-run shows).
    std::string attempt = "attempt-1";
    // The run's id in the workspace when it is ingested on the cluster (kubernetes.cnpImage): the shards'
    // pods write it (`ingest-shard --run-id`), so it is chosen before they start, the workspace's next free
    // id (set by the orchestrator; 1 in a planned job).
    std::int64_t clusterRunId = 1;
};

// Kubernetes pod hostnames are "<job>-<index>" and must stay within 63 characters.
inline constexpr std::size_t kMaxJobNameLength = 52;

} // namespace cnp::launch
