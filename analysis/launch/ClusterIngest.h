#pragma once
// Ingest on the cluster (plan key kubernetes.cnpImage; docs/launcher.md, "Ingest on the cluster"): in place
// of fetching every trace of a job, the Kubernetes backend
//  1. checks the attempt's traces where they are: one `kubectl exec` into the fetch pod runs sha256sum over
//     the attempt's folder (the folder is $0, never spliced into the script), and the checks of the trace
//     fetch (launch/TraceFetch: checksum file, size, SHA-256, every rank) are made on what it prints, so no
//     trace moves (only the collector's small checksum files are fetched);
//  2. runs the Indexed Job <job>-ingest (KubernetesManifests: ingestJobManifest), one pod per group of
//     ranks (one per node), each writing shard-K.cnpdb and its summary file shard-K.summary.cnpdb into the
//     attempt's shards/ folder on the volume; the Job and its pods are watched as the workload's are
//     (ResourceWatch), each pod's log kept as <outputDir>/ingest-K.txt;
//  3. fetches only the summary files (checksummed by sha256sum on the volume, streamed and resumable as
//     traces are) into <outputDir>/summaries/.
// The workstation then adds the run from them (ingest/StudyAssembler.h, addRunFromSummaries); the shards
// with the events stay on the volume.
#include "launch/FetchPod.h"
#include "launch/JobSpec.h"
#include "launch/KubernetesBackend.h"
#include "launch/Subprocess.h"
#include "launch/TraceFetch.h"
#include "plan/Plan.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cnp::launch {

class ClusterIngest {
public:
    using Note = std::function<void(const std::string&)>;

    // `execArgv`: the kubectl argv that runs a command in the job's fetch pod, which runs already. `note`:
    // a line for the job's kubectl.txt; `collecting`: a progress message; `cancelled`: polled while the
    // ingest Job runs (Ctrl-C): the Job is then deleted and run() throws InputError saying so.
    ClusterIngest(const plan::Plan& plan, const KubectlOptions& k, const JobSpec& job, ExecArgv execArgv,
                  Note note, Note collecting, std::function<bool()> cancelled = {});
    ~ClusterIngest(); // deletes the ingest Job, and with it its pods, when it created one
    ClusterIngest(const ClusterIngest&) = delete;
    ClusterIngest& operator=(const ClusterIngest&) = delete;

    // Step 1, then with `ingest` steps 2 and 3. Returns the fetched summary files in shard order (none
    // without `ingest`). Throws InputError naming each trace problem (as the trace fetch words them), an
    // ingest Job that failed or did not end within KubectlOptions::ingestTimeoutSeconds (with its first
    // failed pod's last log line), or a summary file missing, short or corrupt.
    std::vector<std::string> run(bool ingest);
    // Run attributes (docs/schema.md): fetch.* of the summaries, ingest.* of the cluster's part.
    const std::vector<std::pair<std::string, std::string>>& figures() const { return figures_; }
    // The groups of ranks, one ingest pod each: one per node.
    int groups() const { return job_.nodes; }

private:
    std::vector<RemoteFile> list(const std::string& dir, const std::string& what);
    std::map<std::string, std::string>
    checksums(const std::string& dir, const std::vector<std::string>& globs, const std::string& what);
    void checkTraces();
    void runIngestJob();
    void keepIngestLogs(std::string& firstFailure);
    std::vector<std::string> fetchSummaries();
    ProcessResult kubectl(const std::vector<std::string>& args, const std::string& input = {}) const;

    const plan::Plan& plan_;
    KubectlOptions k_;
    JobSpec job_;
    ExecArgv execArgv_;
    Note note_, collecting_;
    std::function<bool()> cancelled_;
    bool created_ = false;
    std::uint64_t traceBytes_ = 0;
    double ingestSeconds_ = 0;
    std::vector<std::pair<std::string, std::string>> figures_;
};

} // namespace cnp::launch
