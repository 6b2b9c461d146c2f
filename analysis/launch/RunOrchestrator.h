#pragma once
// Runs a plan's jobs one after the other (each configuration gets the machines to itself, as an ablation
// needs), in plan order: skip what the workspace already holds (resume key: plan.hash + plan.config +
// plan.repeat + launch.traced), start, watch with the per-run timeout, collect, ingest. A failing job is
// reported and the next configuration runs; the failed configuration's remaining repeats are skipped (they
// would fail the same way) unless keep-going is set, and when its engine failed for a reason every job
// shares (a flag the engine does not know, no GPU runtime: launch/EngineFailure) the rest fail "not
// started" with that cause. A cancel stops only the running job (and starts no other), keeping every
// finished run. The workspace's plan order gains a configuration only once the configuration has a run in
// it: a study that produces nothing changes nothing.
// A job an earlier run left in place (Backend::attach: detached, or its cnp crashed) is taken over, never
// started again nor deleted while it runs. With detach set, each job is submitted (or found running) and
// left to run: nothing is waited for, collected or ingested; running again attaches (docs/launcher.md).
#include "launch/Backend.h"
#include "launch/JobSpec.h"
#include "launch/RunProgress.h"
#include "plan/Plan.h"
#include "store/Workspace.h"

#include <atomic>
#include <vector>

namespace cnp::launch {

class RunOrchestrator {
public:
    RunOrchestrator(const plan::Plan& plan, Workspace& ws, Backend& backend, ProgressListener progress)
        : plan_(plan), ws_(ws), backend_(backend), progress_(std::move(progress)) {}

    // How often a running job is polled (and the cancel flag read), milliseconds.
    void setPollInterval(int ms) { pollMs_ = ms; }
    // Run every repeat of a configuration even after one of them failed (`cnp run --keep-going`).
    void setKeepGoing(bool on) { keepGoing_ = on; }
    // Submit and leave (`cnp run --detach`): only for a backend that canDetach().
    void setDetach(bool on) { detach_ = on; }

    // Every job ends done, failed, skipped or cancelled (or detached); `cancel` may be raised from a signal
    // handler.
    RunSummary run(const std::vector<JobSpec>& jobs, const std::atomic<bool>& cancel);

private:
    JobState runJob(const JobSpec& job, const std::atomic<bool>& cancel, std::string& message);
    JobState runStarted(const JobSpec& job, RunningJob& running, const std::atomic<bool>& cancel,
                        std::string& message);
    JobState finishJob(const JobSpec& job, RunningJob& running, std::string& message);
    JobState runOne(const JobSpec& job, const std::atomic<bool>& cancel, std::string& message);
    JobState leave(const JobSpec& job, RunningJob& running, const std::string& how, std::string& message);
    void report(const JobSpec& job, JobState state, const std::string& message = {});
    void recordPlanOrder();

    const plan::Plan& plan_;
    Workspace& ws_;
    Backend& backend_;
    ProgressListener progress_;
    int pollMs_ = 100;
    std::string abandoned_; // set when a job failed for a reason every job shares (EngineFailure::everyJob)
    bool keepGoing_ = false;
    bool detach_ = false;
    std::vector<std::string> failedConfigs_; // configurations with a failed job (their first failure)
};

// Moves an earlier attempt's folder aside (<dir>.attempt-<n>) so its traces cannot mix into this one's;
// nothing is deleted. Then creates `dir`. Returns this attempt's number: 1 + the earlier attempts' folders
// (so attempt n, once moved aside, is <dir>.attempt-n). Throws InputError when it cannot.
int prepareOutputDir(const std::string& dir);

// JobSpec::attempt for attempt `n`: "attempt-<n>-<8 random hex digits>".
std::string attemptName(int n);

} // namespace cnp::launch
