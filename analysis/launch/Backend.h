#pragma once
// Where `cnp run` runs a job: local processes, podman/docker containers, or a Kubernetes cluster
// (docs/launcher.md). A backend turns a JobSpec into what it starts; the orchestrator drives the rest.
#include "launch/EngineFailure.h"
#include "launch/JobSpec.h"
#include "launch/RunProgress.h"

#include <atomic>
#include <functional>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp::launch {

// A started job. Only the orchestrator's thread calls it.
class RunningJob {
public:
    virtual ~RunningJob() = default;
    // The job's exit code once it has ended (0 = every rank succeeded); nullopt while it runs. Never blocks
    // for long; may report per-rank progress through the listener the backend was given.
    virtual std::optional<int> poll() = 0;
    // Stops what this job started, and nothing else; returns once it is stopped. Idempotent.
    virtual void cancel() = 0;
    // After the end (success, failure or cancel): brings every rank's traces and logs into
    // JobSpec::outputDir and returns the logs' text (for the plan's log metric). Throws InputError, naming
    // each rank and file, when a trace that should have come back is missing, short or corrupt; what did
    // arrive stays in the folder, and what the job started is stopped and deleted all the same.
    virtual std::string collect() = 0;
    // What only the backend knows of the run this job becomes, as run attributes (docs/schema.md,
    // run_attributes: fetch.*), once collect() has returned. None by default.
    virtual std::vector<std::pair<std::string, std::string>> runAttributes() const { return {}; }
    // The run's summary files (store/SummaryFile.h) when the backend ingested its traces elsewhere (the
    // Kubernetes backend with kubernetes.cnpImage: on the cluster), once collect() has returned; the run
    // is then added from them (JobIngest). None by default: the traces are in JobSpec::outputDir.
    virtual std::vector<std::string> summaryFiles() const { return {}; }
    // True once the workload itself runs on every rank: after queueing (Kueue), scheduling and image
    // pulls, which a cluster may take hours over. The run's timeout counts from then. Called after
    // poll(); true from the start by default (a local process, a container whose image was checked).
    virtual bool workloadRunning() const { return true; }
    // Why the job ended with `exitCode` when its engine rather than the workload failed (a container
    // engine's bad flag, missing image or GPU runtime: launch/EngineFailure), from what it printed. None
    // by default.
    virtual EngineFailure failure(int exitCode) const {
        (void)exitCode;
        return {};
    }
    // Lets the job run on without this program: stops watching and leaves everything it started in place
    // (Backend::canDetach). A later attach() finds it again. Only for a backend that can detach.
    virtual void detach() {}
    // The orchestrator's cancel request (Ctrl-C), which a collect() that waits long polls (the ingest on
    // the cluster): it then stops what it started and throws InputError saying so. Set before collect().
    void setCancelRequest(const std::atomic<bool>* cancel) { cancel_ = cancel; }

protected:
    bool cancelRequested() const { return cancel_ && cancel_->load(); }

private:
    const std::atomic<bool>* cancel_ = nullptr;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0; // "local", "podman", "docker", "kubernetes" (launch.backend)
    // What start() would run, for --dry-run: JSON argv arrays, one per line, or YAML documents.
    virtual std::string describe(const JobSpec& job) const = 0;
    // Before the study, once: what can be checked for all `jobs` at once (the container backends: every
    // image present, pulled as the plan says). `note` hears what takes long (a pull). Throws InputError
    // naming the plan when a job could not start; nothing by default.
    virtual void prepare(const std::vector<JobSpec>& jobs,
                         const std::function<void(const std::string&)>& note) {
        (void)jobs;
        (void)note;
    }
    // What prepare() would create on the way for `jobs`, in describe()'s form, for --dry-run (the
    // Kubernetes image probe pods); "" by default.
    virtual std::string describePrepare(const std::vector<JobSpec>& jobs) const {
        (void)jobs;
        return {};
    }
    // Throws InputError when the job cannot be started (bad mount path, missing program...).
    virtual std::unique_ptr<RunningJob> start(const JobSpec& job, const ProgressListener& progress) = 0;
    // True when a started job runs on after this program exits (a cluster's), so `cnp run --detach` can
    // submit and leave, and a later run attach to it. A local process or container ends with cnp.
    virtual bool canDetach() const { return false; }
    // The job an earlier `cnp run` started as `job` (detached, or one that crashed or was killed) and left
    // in place, running or ended: watched from now on as if just started, and `job.attempt` set to the
    // attempt it runs. nullptr when there is none, so start() may create it. Throws InputError, leaving it
    // alone, when one exists that this plan did not start (another plan's, or another version of this one).
    virtual std::unique_ptr<RunningJob> attach(JobSpec& job, const ProgressListener& progress) {
        (void)job;
        (void)progress;
        return nullptr;
    }
};

// The local and container backends run one node, this machine: a plan of several nodes would start one
// node that waits for the others (`--nnodes=2 --master-addr=localhost`) until the timeout. Throws
// InputError naming the plan, the configuration and the way out for a job with nodes > 1.
void requireOneNode(const JobSpec& job, const std::string& backend);

// One JSON array of strings, no trailing newline.
std::string jsonArgv(const std::vector<std::string>& argv);

} // namespace cnp::launch
