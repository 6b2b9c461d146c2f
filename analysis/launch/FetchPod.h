#pragma once
// The helper pod <job>-fetch (KubernetesManifests traceFetcherManifest): it mounts the traces PVC and
// sleeps while cnp lists, checksums and copies files of an attempt's folder with `kubectl exec`
// (launch/TraceFetch). Used to fetch traces (KubernetesBackend), to check them and fetch the summary files
// of an ingest on the cluster (ClusterIngest), and to fetch a run's event shards on demand
// (ClusterEventFetch).
#include "launch/JobSpec.h"
#include "launch/KubernetesBackend.h"
#include "launch/TraceFetch.h"
#include "plan/Plan.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cnp::launch {

// The kubectl argv that runs `command` in the fetch pod.
using ExecArgv = std::function<std::vector<std::string>(const std::vector<std::string>&)>;

class FetchPod {
public:
    FetchPod(const plan::Plan& plan, const KubectlOptions& k, const JobSpec& job);

    std::string name() const { return job_.jobName + "-fetch"; }
    // Creates the pod and waits until it runs: false when it does not within k.fetchTimeoutSeconds. Throws
    // InputError naming job.outputDir when it cannot be created (`what`: the message's start, "traces not
    // fetched").
    bool start(const std::string& what) const;
    // `kubectl delete pod/<name> --ignore-not-found --wait=false`.
    void remove() const;
    // `kubectl exec <name> -c fetch -- COMMAND`; no request timeout: a long transfer is never cut (a
    // stalled one is, by the transfer's stall timeout).
    std::vector<std::string> execArgv(const std::vector<std::string>& command) const;
    ExecArgv exec() const;

private:
    const plan::Plan& plan_;
    KubectlOptions k_;
    JobSpec job_;
};

// The transfer settings of `k` (stall timeout, tries per file) for job `job`'s files (each of its ranks
// expected to have a trace).
FetchOptions fetchOptionsFor(const KubectlOptions& k, const JobSpec& job);
// The argv that prints a remote file through `exec`: `cat PATH`.
PrintFile catThrough(ExecArgv exec);
// A fetch's run attributes (docs/schema.md): fetch.transport (kubectl-exec), fetch.files, fetch.bytes,
// fetch.transferred_bytes, fetch.seconds.
std::vector<std::pair<std::string, std::string>> fetchFigures(const FetchOutcome& got);

// The listing of remote folder `dir` through `exec`, tried `tries` times; empty when there is no such
// folder. Throws InputError naming `file` when it cannot be listed (`what`: "traces", "summaries").
std::vector<RemoteFile> listRemoteFolder(const ExecArgv& exec, const std::string& dir, int tries,
                                         const std::string& file, const std::string& what);
// sha256sum of the files of `dir` matching `globs`, through `exec`, tried `tries` times: name -> hex.
// Throws InputError naming `file` when it fails every time.
std::map<std::string, std::string> checksumRemoteFolder(const ExecArgv& exec, const std::string& dir,
                                                        const std::vector<std::string>& globs, int tries,
                                                        const std::string& file, const std::string& what);

} // namespace cnp::launch
