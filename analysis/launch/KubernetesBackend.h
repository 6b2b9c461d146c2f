#pragma once
// Jobs on a Kubernetes cluster through kubectl, run as a subprocess (argv, never a shell): the manifests of
// KubernetesManifests are created with `kubectl create -f -`; the Job is polled with `kubectl get job -o
// json` (its pods with `kubectl get pods -l cnp.job=<job>,cnp.role=workload -o json` for per-rank progress);
// when it ends each pod's log is kept as <outputDir>/node<index>.log and the traces come back from the PVC
// through a short-lived fetch pod whose stdout (a base64 tar of <pvc>/<job>/, read with `kubectl logs`) is
// unpacked into <outputDir>. Finish and cancel both delete what the job created (Job, Service, fetch pod),
// and only that.
#include "launch/Backend.h"
#include "plan/Plan.h"

namespace cnp::launch {

struct KubectlOptions {
    std::string program = "kubectl";
    std::string context, namespace_, kubeconfig; // "" = kubectl's defaults
    int pollMs = 1000;                           // between status requests
    int fetchTimeoutSeconds = 300;               // for the fetch pod to finish
};

// [program, --request-timeout=30s, --kubeconfig K, --context C, --namespace N (those set), args...]
std::vector<std::string> kubectlArgv(const KubectlOptions& k, const std::vector<std::string>& args);

class KubernetesBackend : public Backend {
public:
    // The namespace is one for kubectl and the manifests: an option given in `k` overrides the plan's, and
    // the plan's is what kubectl uses when `k` names none.
    KubernetesBackend(plan::Plan plan, KubectlOptions k);
    std::string name() const override { return "kubernetes"; }
    std::string describe(const JobSpec& job) const override;
    std::unique_ptr<RunningJob> start(const JobSpec& job, const ProgressListener& progress) override;

private:
    plan::Plan plan_;
    KubectlOptions k_;
};

// Standard base64 (RFC 4648) decoding; whitespace skipped; stops at the first other invalid character.
std::string decodeBase64(const std::string& text);

} // namespace cnp::launch
