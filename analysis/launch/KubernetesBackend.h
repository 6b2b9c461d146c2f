#pragma once
// Jobs on a Kubernetes cluster through kubectl, run as a subprocess (argv, never a shell): the manifests of
// KubernetesManifests are created with `kubectl create -f -`; the Job is watched with `kubectl get job <job>
// --watch -o json --output-watch-events` and its pods with `kubectl get pods -l cnp.job=<job>,cnp.role=
// workload --watch ...` (per-rank progress), both streamed and read without blocking (ResourceWatch:
// restarted when a stream ends, each start re-reading the current state);
// when it ends each pod's log is kept as <outputDir>/node<index>.log and the traces of this attempt's
// folder <pvc>/<job>/<attempt>/ come back through a helper pod that mounts the PVC and sleeps: listed with
// `kubectl exec <job>-fetch -- sh -c ...`, then each file with `kubectl exec ... -- cat FILE`, its stdout
// streamed to disk and checked against the collector's checksum file (launch/TraceFetch). A missing,
// short or corrupt rank makes collect() throw. With kubernetes.cnpImage the traces stay on the volume:
// checked there, ingested there by the Job <job>-ingest, and only the shards' summary files come back
// (launch/ClusterIngest; RunningJob::summaryFiles). Finish and cancel both delete what the job created
// (Job, Service, fetch pod, ingest Job), and only that; detach() deletes nothing, and attach() takes over
// a job an earlier run left (docs/launcher.md, "Detach and attach").
#include "launch/Backend.h"
#include "plan/Plan.h"

namespace cnp::launch {

struct KubectlOptions {
    std::string program = "kubectl";
    std::string context, namespace_, kubeconfig; // "" = kubectl's defaults
    int pollMs = 1000;                           // a watch's reconnect delay; the fetch pod's polling
    int watchTimeoutSeconds = 300;               // a watch's --request-timeout: a stalled one is restarted
    int fetchTimeoutSeconds = 300;               // for the fetch pod to be running
    // A trace transfer (`kubectl exec ... cat`, no request timeout: a long one is never cut) whose file has
    // not grown for this long is stopped and tried again, at most fetchTries times per file.
    int stallSeconds = 60;
    int fetchTries = 3;
    // Ingest on the cluster (kubernetes.cnpImage): the ingest Job's activeDeadlineSeconds, and how long
    // cnp waits for it to end.
    int ingestTimeoutSeconds = 3600;
};

// [program, --request-timeout=<seconds>s, --kubeconfig K, --context C, --namespace N (those set), args...]
std::vector<std::string> kubectlArgv(const KubectlOptions& k, const std::vector<std::string>& args,
                                     int requestTimeoutSeconds = 30);

class KubernetesBackend : public Backend {
public:
    // The namespace is one for kubectl and the manifests: an option given in `k` overrides the plan's, and
    // the plan's is what kubectl uses when `k` names none.
    KubernetesBackend(plan::Plan plan, KubectlOptions k);
    std::string name() const override { return "kubernetes"; }
    std::string describe(const JobSpec& job) const override;
    // Before any job: each traced image probed on the cluster, one pod per image (launch/
    // KubernetesImageProbe; kubernetes.probeImages: false skips it). describePrepare: those pods.
    void prepare(const std::vector<JobSpec>& jobs,
                 const std::function<void(const std::string&)>& note) override;
    std::string describePrepare(const std::vector<JobSpec>& jobs) const override;
    std::unique_ptr<RunningJob> start(const JobSpec& job, const ProgressListener& progress) override;
    bool canDetach() const override { return true; }
    // `kubectl get <kind>/<job> -o json`: the job when its annotations say this plan (cnp.plan/hash) started
    // it for this configuration, with the attempt it runs (cnp.job/attempt).
    std::unique_ptr<RunningJob> attach(JobSpec& job, const ProgressListener& progress) override;

private:
    plan::Plan plan_;
    KubectlOptions k_;
};

} // namespace cnp::launch
