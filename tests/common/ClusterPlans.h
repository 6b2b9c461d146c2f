#pragma once
// Kubernetes plans shared by the manifest tests (tst_kubernetesmanifests: what each manifest holds;
// tst_kubernetesschema: that each object is valid against the API's models).
#include "TestPlans.h"
#include "plan/Plan.h"

#include <string>

namespace cnp::testing {

// A 2-node × 8-GPU plan of one configuration as `jobKind` (IndexedJob or PyTorchJob): rendezvous, node
// pool and selector, a PVC mount, env values with $(VAR) text, a capture window.
inline plan::Plan clusterPlan(const std::string& jobKind) {
    auto plan = twoConfigPlan({"ljperf", "benchmark", "--model", "deepspeed/llama3-8b"});
    plan.resources.nodes = 2;
    plan.resources.gpusPerNode = 8;
    plan.resources.cpu = "64";
    plan.resources.memory = "512Gi";
    plan.kubernetes.namespace_ = "ablation";
    plan.kubernetes.collectorImage = "registry.local/cnp-collector:0.1";
    plan.kubernetes.tracesPvc = "cnp-traces";
    plan.kubernetes.jobKind = jobKind;
    plan.capture = "steps:10:5";
    auto& base = plan.configurations[0].resolved;
    base.env.push_back({"NCCL_SOCKET_IFNAME", "eth0", {}});
    base.env.push_back({"LITERAL", "$(HOME) stays", {}});
    base.nodePool = "ac2";
    base.nodeSelector["cloud/gpu"] = "h200";
    base.mounts.push_back({"", "/data", true, "datasets", {}});
    plan.configurations.resize(1);
    return plan;
}

// The plan text of a one-GPU-per-pod study with every cluster-admin field set (issue 28.1): priority
// class, service account, pull secrets, tolerations, pod annotations, extra resources, host network,
// added capabilities, limits for the workload and the helpers, TTL, a shared-memory size limit.
inline std::string adminFieldsPlanText(const std::string& jobKind) {
    return "name: admin\nworkload: {command: [python, train.py]}\n"
           "resources: {gpusPerNode: 1, cpu: '8', memory: 64Gi, cpuLimit: '16', memoryLimit: 96Gi}\n"
           "kubernetes:\n  jobKind: " +
           jobKind +
           "\n  collectorImage: registry.local/cnp-collector:0.1\n"
           "  priorityClassName: training-high\n  serviceAccountName: cnp-runner\n"
           "  imagePullSecrets: [nvcr-pull]\n"
           "  tolerations:\n    - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
           "    - {key: dedicated, value: ml, effect: NoExecute, tolerationSeconds: 600}\n"
           "  podAnnotations: {k8s.v1.cni.cncf.io/networks: rdma-net}\n"
           "  extraResources: {rdma/rdma_shared_device_a: '1'}\n"
           "  hostNetwork: true\n  addCapabilities: [IPC_LOCK]\n  ttlSecondsAfterFinished: 3600\n"
           "  shmSizeLimit: 32Gi\n  helperCpu: 200m\n  helperMemory: 64Mi\n"
           "configurations: [{name: Base, image: 'nvcr.io/nvidia/pytorch:25.01-py3'}]\n";
}

} // namespace cnp::testing
