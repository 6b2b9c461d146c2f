#pragma once
// An ablation plan (YAML, docs/plans.md): one workload run under an ordered list of configurations, each
// configuration its parent (`extends:`) plus a delta. This header is the contract between the plan parser
// (plan/PlanParser), the linter (plan/PlanLint) and the launcher (launch/*): the parser fills `Plan` with
// the configurations as written and as resolved; the launcher reads only resolved configurations.
//
// Invariants after a successful parse:
//  - configurations are in plan order, names unique and non-empty;
//  - every `extends` names an earlier configuration (no cycles);
//  - Configuration::resolved holds the parent's values overlaid by this configuration's own (env by key,
//    later wins; args appended; mounts by container path; nodeSelector by key; scalars replaced when set);
//  - every value is the literal text from the file: nothing is expanded, nothing passes through a shell.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp::plan {

// Where a value was written in the plan file: 1-based line and column; 0 when it has no place (defaults).
struct SourcePos {
    int line = 0;
    int column = 0;
};

struct EnvVar {
    std::string name;
    std::string value;
    SourcePos pos;
};

struct Mount {
    std::string hostPath;      // local and container backends; on Kubernetes a PVC name when `pvc` is set
    std::string containerPath; // absolute path inside the container
    bool readOnly = true;
    std::string pvc; // Kubernetes only: mount this PersistentVolumeClaim instead of a host path
    SourcePos pos;
};

// A pod toleration as Kubernetes writes it (core/v1 Toleration).
struct Toleration {
    std::string key;
    std::string operator_; // "Equal" or "Exists"; "" = Kubernetes' default (Equal)
    std::string value;
    std::string effect; // "NoSchedule", "PreferNoSchedule", "NoExecute"; "" = all
    std::optional<long long> tolerationSeconds;
    SourcePos pos;
};

// The pod fields cluster admins require that one configuration may set for its own jobs (`kubernetes:` in
// a configuration, docs/plans.md): each one it sets replaces the plan's (or its parent configuration's);
// podAnnotations and extraResources merge by key. Unset = inherited.
struct KubernetesPodFields {
    std::optional<std::vector<Toleration>> tolerations;
    std::optional<std::string> priorityClassName;
    std::optional<std::string> serviceAccountName;
    std::optional<std::vector<std::string>> imagePullSecrets;
    std::map<std::string, std::string> podAnnotations;
    std::map<std::string, std::string> extraResources;
    std::optional<bool> hostNetwork;
    std::optional<std::vector<std::string>> addCapabilities;
};

// What a configuration sets; an unset optional inherits from the parent.
struct ConfigValues {
    std::optional<std::string> image;
    std::vector<EnvVar> env;       // in file order; a later entry of the same name wins
    std::vector<std::string> args; // appended to the workload's argv (parent's first)
    std::vector<Mount> mounts;     // keyed by containerPath
    std::map<std::string, std::string> nodeSelector;
    std::optional<std::string> nodePool;        // shorthand: nodeSelector[plan.nodePoolLabel] = nodePool
    std::optional<std::string> deepspeedConfig; // inline JSON text or a path relative to the plan file
    std::optional<bool> privileged;             // accepted only to be linted (never passed to a backend)
    std::optional<bool> ipcHost;            // container backends: --ipc=host (default true: NCCL/DataLoader)
    std::optional<std::string> cudaVersion; // the image's CUDA ("13.0.2"); unset = read from the image tag
    std::optional<std::string> nodeDriverVersion; // the driver this configuration's nodes report (lint only)
    KubernetesPodFields kubernetes;               // over the plan's `kubernetes:` pod fields
    std::vector<SourcePos> argsPos;               // parallel to args
    // Where each scalar key above was written ("image", "privileged", "deepspeedConfig", "cudaVersion",
    // "extends", "name", ...; "deepspeedConfig.stage3_prefetch_bucket_size" for a DeepSpeed config written
    // as a YAML mapping). In `resolved`, inherited keys keep the position where the ancestor wrote them.
    std::map<std::string, SourcePos> positions;
};

struct Configuration {
    std::string name;
    std::string extends; // "" for a root configuration
    // What this configuration is expected to change against its predecessor (`expect:`), as the text of
    // metrics/Expectation.h ("comm=0.5; scale.gemm=0.8"); "" when unstated. Never inherited: it is the
    // configuration's own step. Recorded with its runs as run attribute plan.expect.
    std::string expect;
    ConfigValues own; // what this configuration writes itself (the delta from its parent)
    ConfigValues resolved;
    SourcePos pos; // of the configuration's `name:`
};

struct Workload {
    std::vector<std::string> command;  // argv: command[0] is the program (torchrun is added by the launcher)
    std::string workingDir;            // "" = the container's / process's default
    std::optional<bool> usesDeepSpeed; // `deepspeed:`; unset = inferred (plan::usesDeepSpeed in PlanLint.h)
    std::vector<SourcePos> commandPos; // parallel to command
    SourcePos pos;
};

struct Resources {
    int nodes = 1;
    int gpusPerNode = 1;
    std::string cpu;         // Kubernetes quantity ("16"), "" = no request
    std::string memory;      // Kubernetes quantity ("128Gi"), "" = no request
    std::string cpuLimit;    // Kubernetes limit of the workload container, "" = none
    std::string memoryLimit; // Kubernetes limit of the workload container, "" = none
    std::string gpuResource = "nvidia.com/gpu";
};

struct Repeats {
    int traced = 1;
    int untraced = 0; // extra repeats without the collector: measure its overhead
};

// How the workload's log reports its speed. `regex` (RE2 syntax) has one capture group: the number.
struct LogMetric {
    std::string regex; // "" = none
    std::string unit;  // "tokens/s", "samples/s", "steps/s" (throughput) or "s/step", "ms/step" (step time)
    SourcePos pos;
};

struct KubernetesOptions {
    std::string namespace_;                              // "" = kubectl's current namespace
    std::string context;                                 // kubectl --context
    std::string kubeconfig;                              // kubectl --kubeconfig
    std::string collectorImage = "cnp-collector:latest"; // initContainer that copies the collector
    std::string tracesPvc = "cnp-traces";                // ReadWriteMany PVC the traces are written to
    std::string jobKind = "IndexedJob";                  // or "PyTorchJob" (Kubeflow)
    std::string nodePoolLabel = "node.kubernetes.io/instance-type"; // label `nodePool:` selects on
    // The Qt-free cnp image (docs/container.md): when set, a traced job's traces are checked and ingested
    // on the cluster by an Indexed Job of this image, and only the shards' summaries come back
    // (docs/launcher.md, "Ingest on the cluster"). "" = every trace is fetched and ingested here.
    std::string cnpImage;
    // What cluster admins require of a pod, passed through to the workload pods (docs/launcher.md):
    std::vector<Toleration> tolerations;
    std::string priorityClassName;                     // "" = none
    std::string serviceAccountName;                    // "" = the namespace's default
    std::vector<std::string> imagePullSecrets;         // secret names
    std::map<std::string, std::string> podAnnotations; // e.g. k8s.v1.cni.cncf.io/networks (Multus)
    std::map<std::string, std::string>
        extraResources; // e.g. rdma/rdma_shared_device_a: "1" (requests = limits)
    bool hostNetwork = false;
    std::vector<std::string> addCapabilities; // the workload container's; only IPC_LOCK and SYS_NICE
    int ttlSecondsAfterFinished = -1;         // the Job's; -1 = none
    std::string shmSizeLimit;                 // sizeLimit of the /dev/shm emptyDir (quantity); "" = none
    std::string helperCpu = "100m";           // requests = limits of the collector's init container
    std::string helperMemory = "128Mi";       // and of the fetch pod (a ResourceQuota wants limits)
    // Gang scheduling through Kueue: the LocalQueue the job is submitted to (label
    // kueue.x-k8s.io/queue-name); the job is created suspended and Kueue admits all its pods at once or
    // none. "" = no queue.
    std::string queueName;
    // Pod Security "restricted": pods runAsNonRoot with seccomp RuntimeDefault, every container drops all
    // capabilities (so no addCapabilities, no hostNetwork).
    bool restricted = false;
    int runAsUser = -1; // the pods' UID (restricted wants a non-root one); -1 = the image's user
    // activeDeadlineSeconds = the run's timeout + this: the cluster's backstop should cnp be gone, with
    // room for scheduling and image pulls, which cnp's own timeout does not count.
    int startupAllowanceSeconds = 1800;
    // Before a study, one short-lived pod per image of the traced configurations runs ImageTraceCheck's
    // script (launch/KubernetesImageProbe), its activeDeadlineSeconds and cnp's wait for it bounded by
    // probeSeconds (room for the image's pull). false: no probe pods (clusters that allow no extra pods).
    bool probeImages = true;
    int probeSeconds = 600;
};

struct ContainerOptions {
    std::string gpuFlags = "--gpus all"; // or "--device nvidia.com/gpu=all" (CDI)
    std::vector<std::string> extraArgs;  // appended verbatim to `run` (never --privileged: linted)
    std::string pull = "missing";        // before the study: pull an absent image ("missing"), every
                                         // image ("always") or none ("never": an absent image is an error)
};

struct Plan {
    std::string path; // the file it was read from
    std::string hash; // hex digest of the file's bytes: identifies runs of this plan for resume
    std::string name;
    std::string description;
    Workload workload;
    Resources resources;
    Repeats repeats;
    std::string capture;      // CNP_CAPTURE spec ("" = all)
    double tokensPerStep = 0; // 0 = unknown
    double flopsPerToken = 0; // model FLOPs per token, 0 = unknown
    // The fabric's peak bus bandwidth per GPU in GB/s (NVLink/NVSwitch inside a node, InfiniBand/RoCE
    // between nodes), 0 = unknown: recorded with each run (fabric.* run attributes) for `cnp collectives`.
    struct Fabric {
        double intraNodeGBps = 0, interNodeGBps = 0;
    } fabric;
    LogMetric logMetric;
    int timeoutSeconds = 0; // per run, 0 = none
    KubernetesOptions kubernetes;
    ContainerOptions container;
    std::vector<std::string> nodeDriverVersions; // optional: driver versions the target nodes report (lint)
    std::vector<Configuration> configurations;   // plan order
    // Where top-level values were written, by dotted key ("resources.gpusPerNode", "logMetric.regex",
    // "timeout", "nodeDriverVersions.0", "container.extraArgs.1", ...).
    std::map<std::string, SourcePos> positions;

    const Configuration* find(const std::string& configName) const {
        for (const auto& c : configurations)
            if (c.name == configName)
                return &c;
        return nullptr;
    }
};

} // namespace cnp::plan
