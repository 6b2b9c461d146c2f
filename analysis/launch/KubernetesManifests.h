#pragma once
// Kubernetes objects for one job, emitted with yaml-cpp (never pasted together from strings):
//  - a headless Service <job> (clusterIP: None, publishNotReadyAddresses) so pods resolve each other as
//    <job>-<index>.<job> before they are ready;
//  - a batch/v1 Indexed Job <job>: completions = parallelism = nodes, backoffLimit 0, subdomain <job>,
//    MASTER_ADDR = <job>-0.<job>, WORLD_SIZE = nodes × GPUs, NODE_RANK (and PET_NODE_RANK for torchrun,
//    RANK when a pod is one rank) from the pod's completion index; or, with jobKind PyTorchJob, a Kubeflow
//    kubeflow.org/v1 PyTorchJob whose operator sets the rendezvous variables;
//  - the collector copied by an initContainer (image configurable) into an emptyDir that the workload
//    mounts read-only; traces written to <tracesPvc>:/<job>/<attempt>/ (JobSpec::attempt: each attempt its
//    own folder); GPUs as resources.limits; nodeSelector
//    from the configuration; no privileged container, no hostPath (a plan mount must name a PVC);
//  - labels cnp.plan / cnp.config / cnp.repeat / cnp.job (label-safe forms; the literal names are in
//    annotations).
// Plan values are literal: '$' is doubled in command, args and env values, because the kubelet expands
// $(VAR) there.
#include "launch/JobSpec.h"
#include "plan/Plan.h"

#include <cstdint>
#include <string>

namespace cnp::launch {

// Inside the pods.
inline constexpr const char* kPodCollectorDir = "/cnp/collector";
inline constexpr const char* kPodTracesDir = "/cnp/traces";
// Where the collector image holds the library (copied from there by the initContainer).
inline constexpr const char* kCollectorImageLibrary = "/opt/cnp/lib/libcnp-collector.so";

// The job's objects as one multi-document YAML stream (documents separated by "---"). Throws InputError
// for a mount without a PVC or a job without an image.
std::string jobManifests(const plan::Plan& plan, const JobSpec& job);

// The helper pod <job>-fetch: mounts the traces PVC read-only and sleeps (at most kFetchPodSeconds, its
// activeDeadlineSeconds too, so a launcher that died leaves nothing running for longer) while the launcher
// lists and copies the attempt's folder with `kubectl exec` (launch/TraceFetch). Its image is the collector
// image, which must hold sh, sleep, cat and wc (busybox will do).
std::string traceFetcherManifest(const plan::Plan& plan, const JobSpec& job);
inline constexpr int kFetchPodSeconds = 86400;

// The image probe pod `podName` (launch/KubernetesImageProbe): `/bin/sh -c script` in `job`'s image, once
// per image before a study. Label cnp.role=probe (with cnp.plan; the image in annotation cnp.probe/image),
// restartPolicy Never, activeDeadlineSeconds = kubernetes.probeSeconds; the pod policy of `job`'s
// configuration (service account, priority class, pull secrets, tolerations, the restricted security
// context) and its nodeSelector, so the probe pulls where the job will; requests = limits of the helper
// containers (helperCpu, helperMemory: a ResourceQuota wants limits). No GPU, no volumes, no service
// account token. Throws InputError as jobManifests does for the job's image.
std::string imageProbeManifest(const plan::Plan& plan, const JobSpec& job, const std::string& podName,
                               const std::string& script);
// Ingest on the cluster (plan key kubernetes.cnpImage; docs/launcher.md, "Ingest on the cluster"): the
// Indexed Job <job>-ingest (label cnp.role=ingest), completions = parallelism = `groups`, whose pod K runs
// the cnp image's program without a shell:
//   cnp ingest-shard /data/<job>/<attempt>/shards/shard-K.cnpdb /data/<job>/<attempt> --block K/<groups>
//       --run <run> --run-id <runId> --config <config> --repeat <repeat>
//       --summary-out /data/<job>/<attempt>/shards/shard-K.summary.cnpdb --jobs 1 --quiet --again
// (--again: a pod retried after its first was killed removes what that one left, or keeps a pair it
// finished)
// (K = $(JOB_COMPLETION_INDEX), which the kubelet expands; the plan's values are escaped), the traces PVC
// mounted read-write at /data, requests = limits of kIngestCpu and kIngestMemory (the ingest worker's
// bound), the plan's pod policy (security context, service account, priority, pull secrets,
// tolerations) as the helper pods get it, backoffLimit 1, activeDeadlineSeconds `deadlineSeconds`, the
// plan's ttlSecondsAfterFinished. Throws InputError when kubernetes.cnpImage is no image reference.
std::string ingestJobManifest(const plan::Plan& plan, const JobSpec& job, int groups, std::int64_t runId,
                              int deadlineSeconds);
inline constexpr const char* kPodDataDir = "/data";
inline constexpr const char* kCnpImageProgram = "/opt/cnp/bin/cnp"; // docs/container.md
inline constexpr const char* kIngestCpu = "1";
inline constexpr const char* kIngestMemory = "1Gi";
// "<job>-ingest".
std::string ingestJobName(const JobSpec& job);
// The shards' folder of the attempt under `root` (kPodTracesDir for the fetch pod, kPodDataDir for the
// ingest pods): <root>/<job>/<attempt>/shards.
std::string podShardsDir(const JobSpec& job, const std::string& root);

// The attempt's trace folder as the pods see it: <kPodTracesDir>/<job>/<attempt>.
std::string podTracesDir(const JobSpec& job);

// "$" -> "$$": a literal value the kubelet leaves as written.
std::string escapeKubeletExpansion(const std::string& value);

} // namespace cnp::launch
