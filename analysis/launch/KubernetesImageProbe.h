#pragma once
// Issue 28 on a cluster: whether the collector can trace in each image of a study's traced jobs, asked of
// the cluster itself before any job is submitted (the container backends ask their engine:
// launch/ImageTraceCheck). One pod per image (KubernetesManifests imageProbeManifest: `/bin/sh -c` with
// ImageTraceCheck's script, the pod policy and nodeSelector of the image's first traced job), all created
// at once with `kubectl create -f -`, then one `kubectl get pods -l cnp.role=probe,cnp.plan=<plan> -o json`
// per pollMs until each has ended or kubernetes.probeSeconds have passed; an ended pod's log is read
// (`kubectl logs <pod> -c probe`) and judged as ImageTraceCheck judges podman's output. Every probe pod is
// deleted before probeImagesOnCluster returns or throws; a SIGINT or SIGTERM meanwhile is held until then
// and delivered again afterwards (so a Ctrl-C leaves no pod behind). kubernetes.probeImages: false skips
// it all (clusters that allow no extra pods).
#include "launch/ContainerImages.h"
#include "launch/JobSpec.h"
#include "launch/KubernetesBackend.h"
#include "plan/Plan.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cnp::launch {

struct ImageProbeTarget {
    ImageUse use;    // the image and the traced configurations that run it, in plan order
    JobSpec job;     // the first traced job with the image: the probe pod gets its pod fields
    std::string pod; // the probe pod's name (probePodName)
};

// The traced jobs' images, each once, in plan order; empty when the plan sets probeImages: false.
std::vector<ImageProbeTarget> imageProbeTargets(const plan::Plan& plan, const std::vector<JobSpec>& jobs);

// "cnp-probe-" + 8 hex digits of the plan's hash and the image: a DNS-1123 label of 18 characters, the
// same for the same plan file and image (a pod a killed run left is replaced), another for another plan.
std::string probePodName(const plan::Plan& plan, const std::string& image);

// Every probe pod `jobs` would get, as one multi-document YAML stream ("" when none): for --dry-run.
std::string imageProbeManifests(const plan::Plan& plan, const std::vector<JobSpec>& jobs);

// A probe pod as `kubectl get pods -o json` reports it.
struct ProbePodStatus {
    std::string phase;   // Pending, Running, Succeeded, Failed; "" when not reported
    std::string reason;  // the probe container's waiting or terminated reason (ErrImagePull, StartError,
                         // ...), else the pod's own (DeadlineExceeded) or its PodScheduled condition's
    std::string message; // what came with `reason`, at most 300 bytes, control characters as '?'
};

// By pod name; text that is not a pod list yields none.
std::map<std::string, ProbePodStatus> parseProbePods(const std::string& json);

// True for the waiting reasons of an image the kubelet could not pull: ErrImagePull, ImagePullBackOff,
// InvalidImageName, ErrImageNeverPull. Such an image refuses the study: its jobs could not start either.
bool isPullFailure(const std::string& reason);

// True for the reasons of a container that will not start in the image as given (waiting:
// CreateContainerConfigError — a root image under runAsNonRoot —, CreateContainerError, RunContainerError;
// terminated: StartError, ContainerCannotRun — no /bin/sh): its image could not be checked, and waiting for
// the pod longer tells nothing more.
bool isStartFailure(const std::string& reason);

// Probes every image of `jobs`' traced jobs on the cluster (above). Throws InputError naming the plan file
// when an image cannot be traced or pulled (each image with its configurations and why, as
// checkImagesTraceable says it), or when the probe pods cannot be created; `note` hears each image that
// could not be checked (no /bin/sh, the pod did not end in time), whose jobs then run as they are.
void probeImagesOnCluster(const plan::Plan& plan, const KubectlOptions& k, const std::vector<JobSpec>& jobs,
                          const std::function<void(const std::string&)>& note);

} // namespace cnp::launch
