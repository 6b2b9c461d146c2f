#include "launch/KubernetesManifests.h"

#include "core/InputError.h"
#include "launch/JobPlanner.h"
#include "plan/ImageReference.h"
#include "plan/KubernetesValues.h"
#include "plan/PlanResolver.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

namespace cnp::launch {

namespace {

// Every string scalar is double-quoted: "1", "true" or "0755" stay strings for the API server.
YAML::Emitter& str(YAML::Emitter& out, const std::string& s) {
    return out << YAML::DoubleQuoted << s;
}

void keyStr(YAML::Emitter& out, const char* key, const std::string& value) {
    out << YAML::Key << key << YAML::Value;
    str(out, value);
}

// `role`: "workload" for the job's pods (what the Service selects and the driver lists as ranks), "fetch"
// for the trace fetch pod, "" for the job's other objects.
// `queue`: the Kueue LocalQueue label, on the job object only (Kueue admits the Job or PyTorchJob, never
// its pods one by one).
void labels(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job, const std::string& role = {},
            bool queue = false) {
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    if (queue && !plan.kubernetes.queueName.empty())
        keyStr(out, "kueue.x-k8s.io/queue-name", plan.kubernetes.queueName);
    keyStr(out, "app.kubernetes.io/managed-by", "cnp");
    keyStr(out, "cnp.plan", dnsLabel(plan.name, 63));
    keyStr(out, "cnp.config", dnsLabel(job.config, 63));
    keyStr(out, "cnp.repeat", std::to_string(job.repeat));
    keyStr(out, "cnp.job", job.jobName);
    if (!role.empty())
        keyStr(out, "cnp.role", role);
    out << YAML::EndMap;
}

void metadata(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job, const std::string& name,
              const std::string& role = {}, bool queue = false) {
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    keyStr(out, "name", name);
    if (!plan.kubernetes.namespace_.empty())
        keyStr(out, "namespace", plan.kubernetes.namespace_);
    labels(out, plan, job, role, queue);
    out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
    keyStr(out, "cnp.plan/name", plan.name);
    keyStr(out, "cnp.plan/hash", plan.hash);
    keyStr(out, "cnp.config/name", job.config);
    // Where this attempt's ranks write (JobSpec::attempt): a later `cnp run` that attaches to the job reads
    // its traces from there (docs/launcher.md, "Detach and attach").
    keyStr(out, "cnp.job/attempt", job.attempt);
    out << YAML::EndMap << YAML::EndMap;
}

void stringList(YAML::Emitter& out, const char* key, const std::vector<std::string>& items, bool escape) {
    out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
    for (const auto& i : items)
        str(out, escape ? escapeKubeletExpansion(i) : i);
    out << YAML::EndSeq;
}

void envFromIndex(YAML::Emitter& out, const char* name) {
    out << YAML::BeginMap;
    keyStr(out, "name", name);
    out << YAML::Key << "valueFrom" << YAML::Value << YAML::BeginMap << YAML::Key << "fieldRef" << YAML::Value
        << YAML::BeginMap;
    keyStr(out, "fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']");
    out << YAML::EndMap << YAML::EndMap << YAML::EndMap;
}

// The workload's env: the configuration's and the collector's (escaped), then the rendezvous variables
// (ours: never escaped, the ones from the completion index resolved by the kubelet).
void env(YAML::Emitter& out, const JobSpec& job, bool indexedJob) {
    const std::string traces = podTracesDir(job);
    const std::string lib = std::string(kPodCollectorDir) + "/libcnp-collector.so";
    out << YAML::Key << "env" << YAML::Value << YAML::BeginSeq;
    for (const auto& [k, v] :
         workloadEnvironment(job, lib, traces, indexedJob ? job.jobName + "-0." + job.jobName : "")) {
        out << YAML::BeginMap;
        keyStr(out, "name", k);
        keyStr(out, "value", escapeKubeletExpansion(v));
        out << YAML::EndMap;
    }
    if (indexedJob) {
        const std::pair<const char*, std::string> fixed[] = {
            {"MASTER_ADDR", job.jobName + "-0." + job.jobName},
            {"MASTER_PORT", std::to_string(kMasterPort)},
            {"WORLD_SIZE", std::to_string(job.nodes * job.gpusPerNode)}};
        for (const auto& [k, v] : fixed) {
            out << YAML::BeginMap;
            keyStr(out, "name", k);
            keyStr(out, "value", v);
            out << YAML::EndMap;
        }
        envFromIndex(out, "NODE_RANK");
        envFromIndex(out, "PET_NODE_RANK");
        if (job.gpusPerNode <= 1)
            envFromIndex(out, "RANK");
    }
    if (job.gpusPerNode <= 1) { // a pod of one GPU is one rank; no launcher sets its local rank
        out << YAML::BeginMap;
        keyStr(out, "name", "LOCAL_RANK");
        keyStr(out, "value", "0");
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

void resources(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job) {
    const plan::Resources& r = plan.resources;
    out << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
    for (const bool requests : {true, false}) {
        out << YAML::Key << (requests ? "requests" : "limits") << YAML::Value << YAML::BeginMap;
        const std::string& cpu = requests ? r.cpu : r.cpuLimit;
        const std::string& memory = requests ? r.memory : r.memoryLimit;
        if (!cpu.empty())
            keyStr(out, "cpu", cpu);
        if (!memory.empty())
            keyStr(out, "memory", memory);
        if (job.gpusPerNode > 0)
            keyStr(out, r.gpuResource.c_str(), std::to_string(job.gpusPerNode));
        for (const auto& [name, count] : plan.kubernetes.extraResources) // extended resources: both alike
            keyStr(out, name.c_str(), count);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

// The helper containers' (collector init container, fetch pod): small, and with limits, which a
// namespace's ResourceQuota requires of every container.
void helperResources(YAML::Emitter& out, const plan::Plan& plan) {
    out << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
    for (const char* kind : {"requests", "limits"}) {
        out << YAML::Key << kind << YAML::Value << YAML::BeginMap;
        keyStr(out, "cpu", plan.kubernetes.helperCpu);
        keyStr(out, "memory", plan.kubernetes.helperMemory);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

// A container's securityContext: never privileged, no privilege escalation; `add` capabilities (the
// workload's IPC_LOCK, SYS_NICE only: linted). Under Pod Security "restricted" every capability is
// dropped instead (lint refuses adding any then).
void containerSecurity(YAML::Emitter& out, const plan::Plan& plan, const std::vector<std::string>& add) {
    out << YAML::Key << "securityContext" << YAML::Value << YAML::BeginMap << YAML::Key << "privileged"
        << YAML::Value << false << YAML::Key << "allowPrivilegeEscalation" << YAML::Value << false;
    if (plan.kubernetes.restricted || !add.empty()) {
        out << YAML::Key << "capabilities" << YAML::Value << YAML::BeginMap;
        if (plan.kubernetes.restricted)
            stringList(out, "drop", {"ALL"}, false);
        else
            stringList(out, "add", add, false);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

// The pod's securityContext under Pod Security "restricted": non-root (a stated UID, or the image's,
// which the kubelet then checks is not root) and the runtime's default seccomp profile. Nothing otherwise.
void podSecurity(YAML::Emitter& out, const plan::Plan& plan) {
    const plan::KubernetesOptions& k = plan.kubernetes;
    if (!k.restricted)
        return;
    out << YAML::Key << "securityContext" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "runAsNonRoot" << YAML::Value << true;
    if (k.runAsUser >= 0)
        out << YAML::Key << "runAsUser" << YAML::Value << k.runAsUser;
    out << YAML::Key << "seccompProfile" << YAML::Value << YAML::BeginMap;
    keyStr(out, "type", "RuntimeDefault");
    out << YAML::EndMap << YAML::EndMap;
}

// What cluster admins require of every pod of ours: service account, priority, pull secrets, tolerations.
void podPolicy(YAML::Emitter& out, const plan::Plan& plan) {
    const plan::KubernetesOptions& k = plan.kubernetes;
    podSecurity(out, plan);
    if (!k.serviceAccountName.empty())
        keyStr(out, "serviceAccountName", k.serviceAccountName);
    if (!k.priorityClassName.empty())
        keyStr(out, "priorityClassName", k.priorityClassName);
    if (!k.imagePullSecrets.empty()) {
        out << YAML::Key << "imagePullSecrets" << YAML::Value << YAML::BeginSeq;
        for (const auto& name : k.imagePullSecrets) {
            out << YAML::BeginMap;
            keyStr(out, "name", name);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (k.tolerations.empty())
        return;
    out << YAML::Key << "tolerations" << YAML::Value << YAML::BeginSeq;
    for (const auto& t : k.tolerations) {
        out << YAML::BeginMap;
        for (const auto& [key, value] : {std::pair{"key", &t.key}, std::pair{"operator", &t.operator_},
                                         std::pair{"value", &t.value}, std::pair{"effect", &t.effect}})
            if (!value->empty())
                keyStr(out, key, *value);
        if (t.tolerationSeconds)
            out << YAML::Key << "tolerationSeconds" << YAML::Value << *t.tolerationSeconds;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

void volumeMount(YAML::Emitter& out, const std::string& name, const std::string& path, bool readOnly) {
    out << YAML::BeginMap;
    keyStr(out, "name", name);
    keyStr(out, "mountPath", path);
    out << YAML::Key << "readOnly" << YAML::Value << readOnly << YAML::EndMap;
}

void workloadContainer(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job, bool indexedJob) {
    out << YAML::BeginMap;
    keyStr(out, "name", indexedJob ? "workload" : "pytorch"); // the Kubeflow operator wants "pytorch"
    keyStr(out, "image", job.image);
    stringList(out, "command", nodeArgv(job, indexedJob ? job.jobName + "-0." + job.jobName : ""), true);
    if (!job.workingDir.empty())
        keyStr(out, "workingDir", job.workingDir);
    env(out, job, indexedJob);
    resources(out, plan, job);
    containerSecurity(out, plan, plan.kubernetes.addCapabilities);
    out << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq;
    if (job.traced)
        volumeMount(out, "cnp-collector", kPodCollectorDir, true);
    volumeMount(out, "cnp-traces", kPodTracesDir, false);
    if (job.ipcHost) // the pod form of --ipc=host: a shared-memory /dev/shm for NCCL and DataLoader workers
        volumeMount(out, "cnp-shm", "/dev/shm", false);
    for (std::size_t i = 0; i < job.mounts.size(); ++i)
        volumeMount(out, "mount-" + std::to_string(i), job.mounts[i].containerPath, job.mounts[i].readOnly);
    out << YAML::EndSeq << YAML::EndMap;
}

void collectorInitContainer(YAML::Emitter& out, const plan::Plan& plan) {
    out << YAML::Key << "initContainers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    keyStr(out, "name", "cnp-collector");
    keyStr(out, "image", plan.kubernetes.collectorImage);
    stringList(out, "command", {"cp", kCollectorImageLibrary, std::string(kPodCollectorDir) + "/"}, false);
    helperResources(out, plan);
    containerSecurity(out, plan, {});
    out << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq;
    volumeMount(out, "cnp-collector", kPodCollectorDir, false);
    out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq;
}

void pvcVolume(YAML::Emitter& out, const std::string& name, const std::string& claim, bool readOnly) {
    out << YAML::BeginMap;
    keyStr(out, "name", name);
    out << YAML::Key << "persistentVolumeClaim" << YAML::Value << YAML::BeginMap;
    keyStr(out, "claimName", claim);
    if (readOnly)
        out << YAML::Key << "readOnly" << YAML::Value << true;
    out << YAML::EndMap << YAML::EndMap;
}

void emptyDirVolume(YAML::Emitter& out, const std::string& name, bool memory,
                    const std::string& sizeLimit = {}) {
    out << YAML::BeginMap;
    keyStr(out, "name", name);
    out << YAML::Key << "emptyDir" << YAML::Value << YAML::BeginMap;
    if (memory)
        keyStr(out, "medium", "Memory");
    if (!sizeLimit.empty()) // counted against the pod's memory: bounded, it cannot take the node's
        keyStr(out, "sizeLimit", sizeLimit);
    out << YAML::EndMap << YAML::EndMap;
}

void volumes(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job) {
    out << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq;
    if (job.traced)
        emptyDirVolume(out, "cnp-collector", false);
    pvcVolume(out, "cnp-traces", plan.kubernetes.tracesPvc, false);
    if (job.ipcHost)
        emptyDirVolume(out, "cnp-shm", true, plan.kubernetes.shmSizeLimit);
    for (std::size_t i = 0; i < job.mounts.size(); ++i)
        pvcVolume(out, "mount-" + std::to_string(i), job.mounts[i].pvc, job.mounts[i].readOnly);
    out << YAML::EndSeq;
}

void podTemplate(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job, bool indexedJob) {
    out << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    labels(out, plan, job, "workload");
    if (!plan.kubernetes.podAnnotations.empty()) { // e.g. Multus networks for the RDMA NICs
        out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
        for (const auto& [k, v] : plan.kubernetes.podAnnotations)
            keyStr(out, k.c_str(), v);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "restartPolicy", "Never");
    if (indexedJob)
        keyStr(out, "subdomain", job.jobName);
    podPolicy(out, plan);
    if (plan.kubernetes.hostNetwork) { // NCCL over the node's NICs; cluster DNS still resolves the Service
        out << YAML::Key << "hostNetwork" << YAML::Value << true;
        keyStr(out, "dnsPolicy", "ClusterFirstWithHostNet");
    }
    if (!job.nodeSelector.empty()) {
        out << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap;
        for (const auto& [k, v] : job.nodeSelector)
            keyStr(out, k.c_str(), v);
        out << YAML::EndMap;
    }
    if (job.traced)
        collectorInitContainer(out, plan);
    out << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq;
    workloadContainer(out, plan, job, indexedJob);
    out << YAML::EndSeq;
    volumes(out, plan, job);
    out << YAML::EndMap << YAML::EndMap;
}

std::string serviceDoc(const plan::Plan& plan, const JobSpec& job) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    keyStr(out, "apiVersion", "v1");
    keyStr(out, "kind", "Service");
    metadata(out, plan, job, job.jobName);
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "clusterIP", "None");
    out << YAML::Key << "publishNotReadyAddresses" << YAML::Value << true;
    out << YAML::Key << "selector" << YAML::Value << YAML::BeginMap;
    keyStr(out, "cnp.job", job.jobName);
    keyStr(out, "cnp.role", "workload");
    out << YAML::EndMap;
    out << YAML::Key << "ports" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    keyStr(out, "name", "rendezvous");
    out << YAML::Key << "port" << YAML::Value << kMasterPort << YAML::EndMap << YAML::EndSeq;
    out << YAML::EndMap << YAML::EndMap;
    return out.c_str();
}

// activeDeadlineSeconds: the cluster's own bound, for when cnp is gone (killed, detached). It counts from
// the job's start, which Kubernetes resets when a suspended job is resumed (Kueue's admission), so
// queueing never counts; scheduling and image pulls do, hence the plan's startup allowance on top of the
// run's timeout, which cnp itself counts from when every rank runs (RunningJob::workloadRunning).
void clusterDeadline(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job) {
    if (job.timeoutSeconds > 0)
        out << YAML::Key << "activeDeadlineSeconds" << YAML::Value
            << job.timeoutSeconds + plan.kubernetes.startupAllowanceSeconds;
}

std::string indexedJobDoc(const plan::Plan& plan, const JobSpec& job) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    keyStr(out, "apiVersion", "batch/v1");
    keyStr(out, "kind", "Job");
    metadata(out, plan, job, job.jobName, {}, true);
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "completionMode", "Indexed");
    out << YAML::Key << "completions" << YAML::Value << job.nodes;
    out << YAML::Key << "parallelism" << YAML::Value << job.nodes;
    out << YAML::Key << "backoffLimit" << YAML::Value << 0; // a failed rank fails the run: no retries
    if (!plan.kubernetes.queueName.empty()) // Kueue admits it (all pods or none) by resuming it
        out << YAML::Key << "suspend" << YAML::Value << true;
    clusterDeadline(out, plan, job);
    if (plan.kubernetes.ttlSecondsAfterFinished >= 0)
        out << YAML::Key << "ttlSecondsAfterFinished" << YAML::Value
            << plan.kubernetes.ttlSecondsAfterFinished;
    podTemplate(out, plan, job, true);
    out << YAML::EndMap << YAML::EndMap;
    return out.c_str();
}

void replicaSpec(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job, const char* role,
                 int replicas) {
    out << YAML::Key << role << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "replicas" << YAML::Value << replicas;
    keyStr(out, "restartPolicy", "Never");
    podTemplate(out, plan, job, false);
    out << YAML::EndMap;
}

std::string pyTorchJobDoc(const plan::Plan& plan, const JobSpec& job) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    keyStr(out, "apiVersion", "kubeflow.org/v1");
    keyStr(out, "kind", "PyTorchJob");
    metadata(out, plan, job, job.jobName, {}, true);
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "runPolicy" << YAML::Value << YAML::BeginMap << YAML::Key << "backoffLimit"
        << YAML::Value << 0;
    if (!plan.kubernetes.queueName.empty()) // the training operator's suspend, which Kueue resumes
        out << YAML::Key << "suspend" << YAML::Value << true;
    clusterDeadline(out, plan, job);
    if (plan.kubernetes.ttlSecondsAfterFinished >= 0)
        out << YAML::Key << "ttlSecondsAfterFinished" << YAML::Value
            << plan.kubernetes.ttlSecondsAfterFinished;
    out << YAML::EndMap;
    if (job.gpusPerNode > 0)
        keyStr(out, "nprocPerNode", std::to_string(job.gpusPerNode));
    out << YAML::Key << "pytorchReplicaSpecs" << YAML::Value << YAML::BeginMap;
    replicaSpec(out, plan, job, "Master", 1);
    if (job.nodes > 1)
        replicaSpec(out, plan, job, "Worker", job.nodes - 1);
    out << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return out.c_str();
}

// The plan with the job's configuration's own pod fields (tolerations, priorityClassName, ...) applied
// over its `kubernetes:` block (plan::kubernetesFor). A copy per manifest: plans are small.
plan::Plan forConfiguration(const plan::Plan& plan, const JobSpec& job) {
    plan::Plan p = plan;
    p.kubernetes = plan::kubernetesFor(plan, job.config);
    return p;
}

void checkPodSpec(const plan::Plan& plan, const JobSpec& job) {
    if (job.image.empty())
        throw InputError(job.planPath,
                         "configuration '" + job.config + "': no image for the kubernetes backend");
    if (std::string why = plan::imageReferenceProblem(job.image); !why.empty())
        throw InputError(job.planPath, "configuration '" + job.config + "': image: " + why);
    if (std::string why = plan::imageReferenceProblem(plan.kubernetes.collectorImage); !why.empty())
        throw InputError(job.planPath, "kubernetes.collectorImage: " + why);
    // What the API server would reject (or no node would match), refused here as the lint reports it.
    for (const plan::ValueProblem& p : plan::kubernetesValueProblems(plan))
        throw InputError(job.planPath, p.key + ": " + p.message);
    for (const auto& [k, v] : job.nodeSelector)
        for (const std::string& why : {plan::labelKeyProblem(k), plan::labelValueProblem(v)})
            if (!why.empty())
                throw InputError(job.planPath, "configuration '" + job.config + "': nodeSelector: " + why);
    for (const auto& m : job.mounts)
        if (m.pvc.empty())
            throw InputError(job.planPath, "configuration '" + job.config + "': mount '" + m.containerPath +
                                               "' names no pvc: the kubernetes backend mounts no host paths");
}

// The ingest pod's container: cnp ingest-shard of block $(JOB_COMPLETION_INDEX) of the attempt's folder.
void ingestContainer(YAML::Emitter& out, const plan::Plan& plan, const JobSpec& job, int groups,
                     std::int64_t runId) {
    const std::string folder = std::string(kPodDataDir) + "/" + job.jobName + "/" + job.attempt;
    const std::string shard = podShardsDir(job, kPodDataDir) + "/shard-$(JOB_COMPLETION_INDEX)";
    std::vector<std::string> command = {kCnpImageProgram, "ingest-shard",
                                        shard + ".cnpdb", folder,
                                        "--block",        "$(JOB_COMPLETION_INDEX)/" + std::to_string(groups),
                                        "--run",          escapeKubeletExpansion(job.runName),
                                        "--run-id",       std::to_string(runId),
                                        "--config",       escapeKubeletExpansion(job.config),
                                        "--repeat",       std::to_string(job.repeat),
                                        "--summary-out",  shard + ".summary.cnpdb",
                                        "--jobs",         "1",
                                        "--quiet",        "--again"};
    if (plan.tokensPerStep > 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", plan.tokensPerStep);
        command.insert(command.end(), {"--tokens-per-step", buf});
    }
    out << YAML::BeginMap;
    keyStr(out, "name", "ingest");
    keyStr(out, "image", plan.kubernetes.cnpImage);
    stringList(out, "command", command, false); // escaped above: $(JOB_COMPLETION_INDEX) is the kubelet's
    out << YAML::Key << "env" << YAML::Value << YAML::BeginSeq;
    envFromIndex(out, "JOB_COMPLETION_INDEX");
    out << YAML::EndSeq;
    out << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
    for (const char* kind : {"requests", "limits"}) {
        out << YAML::Key << kind << YAML::Value << YAML::BeginMap;
        keyStr(out, "cpu", kIngestCpu);
        keyStr(out, "memory", kIngestMemory);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    containerSecurity(out, plan, {});
    out << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq;
    volumeMount(out, "cnp-traces", kPodDataDir, false);
    out << YAML::EndSeq << YAML::EndMap;
}

} // namespace

std::string ingestJobName(const JobSpec& job) {
    return job.jobName + "-ingest";
}

std::string podShardsDir(const JobSpec& job, const std::string& root) {
    return root + "/" + job.jobName + "/" + job.attempt + "/shards";
}

std::string ingestJobManifest(const plan::Plan& planAsWritten, const JobSpec& job, int groups,
                              std::int64_t runId, int deadlineSeconds) {
    const plan::Plan plan = forConfiguration(planAsWritten, job);
    if (std::string why = plan::imageReferenceProblem(plan.kubernetes.cnpImage); !why.empty())
        throw InputError(job.planPath, "kubernetes.cnpImage: " + why);
    YAML::Emitter out;
    out << YAML::BeginMap;
    keyStr(out, "apiVersion", "batch/v1");
    keyStr(out, "kind", "Job");
    metadata(out, plan, job, ingestJobName(job), "ingest");
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "completionMode", "Indexed");
    out << YAML::Key << "completions" << YAML::Value << groups;
    out << YAML::Key << "parallelism" << YAML::Value << groups;
    out << YAML::Key << "backoffLimit" << YAML::Value << 1; // one retry: a node lost, not a bad trace
    out << YAML::Key << "activeDeadlineSeconds" << YAML::Value << deadlineSeconds;
    if (plan.kubernetes.ttlSecondsAfterFinished >= 0)
        out << YAML::Key << "ttlSecondsAfterFinished" << YAML::Value
            << plan.kubernetes.ttlSecondsAfterFinished;
    out << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    labels(out, plan, job, "ingest");
    out << YAML::EndMap;
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "restartPolicy", "Never");
    podPolicy(out, plan);
    out << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq;
    ingestContainer(out, plan, job, groups, runId);
    out << YAML::EndSeq;
    out << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq;
    pvcVolume(out, "cnp-traces", plan.kubernetes.tracesPvc, false);
    out << YAML::EndSeq << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return "---\n" + std::string(out.c_str()) + "\n";
}

std::string escapeKubeletExpansion(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        out += c;
        if (c == '$')
            out += '$';
    }
    return out;
}

std::string jobManifests(const plan::Plan& planAsWritten, const JobSpec& job) {
    const plan::Plan plan = forConfiguration(planAsWritten, job);
    checkPodSpec(plan, job);
    if (plan.kubernetes.jobKind == "PyTorchJob")
        return "---\n" + pyTorchJobDoc(plan, job) + "\n";
    return "---\n" + serviceDoc(plan, job) + "\n---\n" + indexedJobDoc(plan, job) + "\n";
}

std::string podTracesDir(const JobSpec& job) {
    return std::string(kPodTracesDir) + "/" + job.jobName + "/" + job.attempt;
}

std::string imageProbeManifest(const plan::Plan& planAsWritten, const JobSpec& job,
                               const std::string& podName, const std::string& script) {
    const plan::Plan plan = forConfiguration(planAsWritten, job);
    checkPodSpec(plan, job);
    YAML::Emitter out;
    out << YAML::BeginMap;
    keyStr(out, "apiVersion", "v1");
    keyStr(out, "kind", "Pod");
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    keyStr(out, "name", podName);
    if (!plan.kubernetes.namespace_.empty())
        keyStr(out, "namespace", plan.kubernetes.namespace_);
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    keyStr(out, "app.kubernetes.io/managed-by", "cnp");
    keyStr(out, "cnp.plan", dnsLabel(plan.name, 63));
    keyStr(out, "cnp.role", "probe");
    out << YAML::EndMap << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
    keyStr(out, "cnp.plan/name", plan.name);
    keyStr(out, "cnp.plan/hash", plan.hash);
    keyStr(out, "cnp.probe/image", job.image);
    out << YAML::EndMap << YAML::EndMap;
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "restartPolicy", "Never");
    out << YAML::Key << "activeDeadlineSeconds" << YAML::Value << plan.kubernetes.probeSeconds;
    out << YAML::Key << "automountServiceAccountToken" << YAML::Value << false; // the image's sh: no API
    podPolicy(out, plan);
    if (!job.nodeSelector.empty()) {
        out << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap;
        for (const auto& [k, v] : job.nodeSelector)
            keyStr(out, k.c_str(), v);
        out << YAML::EndMap;
    }
    out << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    keyStr(out, "name", "probe");
    keyStr(out, "image", job.image);
    stringList(out, "command", {"/bin/sh", "-c", script}, true); // "$" doubled: the kubelet's $(VAR)
    helperResources(out, plan);
    containerSecurity(out, plan, {});
    out << YAML::EndMap << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
    return "---\n" + std::string(out.c_str()) + "\n";
}

std::string traceFetcherManifest(const plan::Plan& planAsWritten, const JobSpec& job) {
    const plan::Plan plan = forConfiguration(planAsWritten, job);
    YAML::Emitter out;
    out << YAML::BeginMap;
    keyStr(out, "apiVersion", "v1");
    keyStr(out, "kind", "Pod");
    metadata(out, plan, job, job.jobName + "-fetch", "fetch");
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    keyStr(out, "restartPolicy", "Never");
    out << YAML::Key << "activeDeadlineSeconds" << YAML::Value << kFetchPodSeconds;
    podPolicy(out, plan);
    out << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    keyStr(out, "name", "fetch");
    keyStr(out, "image", plan.kubernetes.collectorImage);
    stringList(out, "command", {"sleep", std::to_string(kFetchPodSeconds)}, true);
    helperResources(out, plan);
    containerSecurity(out, plan, {});
    out << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq;
    volumeMount(out, "cnp-traces", kPodTracesDir, true);
    out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq;
    pvcVolume(out, "cnp-traces", plan.kubernetes.tracesPvc, true);
    out << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
    return "---\n" + std::string(out.c_str()) + "\n";
}

} // namespace cnp::launch
