#include "launch/RunOrchestrator.h"

#include "core/InputError.h"
#include "launch/JobIngest.h"
#include "launch/LogFigures.h"
#include "launch/LogTail.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <thread>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

} // namespace

int prepareOutputDir(const std::string& dir) {
    std::error_code ec;
    int n = 1;
    while (fs::exists(dir + ".attempt-" + std::to_string(n), ec))
        ++n;
    if (fs::exists(dir, ec)) {
        fs::rename(dir, dir + ".attempt-" + std::to_string(n), ec);
        if (ec)
            throw InputError(dir, "cannot move the earlier attempt aside: " + ec.message());
        ++n;
    }
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw InputError(dir, "cannot create the job's output folder");
    return n;
}

std::string attemptName(int n) {
    std::random_device rd;
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(rd()));
    return "attempt-" + std::to_string(n) + "-" + hex;
}

void RunOrchestrator::report(const JobSpec& job, JobState state, const std::string& message) {
    if (progress_)
        progress_({job.config, job.repeat, std::nullopt, state, message});
}

RunSummary RunOrchestrator::run(const std::vector<JobSpec>& jobs, const std::atomic<bool>& cancel) {
    RunSummary summary;
    failedConfigs_.clear();
    for (const auto& j : jobs)
        report(j, JobState::Pending);
    for (const auto& j : jobs) {
        std::string message;
        const JobState end = runOne(j, cancel, message);
        if (end == JobState::Done || end == JobState::Skipped)
            recordPlanOrder();
        if (end == JobState::Failed &&
            std::find(failedConfigs_.begin(), failedConfigs_.end(), j.config) == failedConfigs_.end())
            failedConfigs_.push_back(j.config);
        report(j, end, message);
        summary.count(end);
    }
    return summary;
}

JobState RunOrchestrator::runOne(const JobSpec& job, const std::atomic<bool>& cancel, std::string& message) {
    if (cancel.load()) {
        message = "not started: the run was cancelled";
        return JobState::Cancelled;
    }
    if (!abandoned_.empty()) {
        message = "not started: " + abandoned_;
        return JobState::Failed;
    }
    if (!keepGoing_ &&
        std::find(failedConfigs_.begin(), failedConfigs_.end(), job.config) != failedConfigs_.end()) {
        message =
            "not started: an earlier repeat of " + job.config + " failed (--keep-going runs every repeat)";
        return JobState::Skipped;
    }
    try {
        return runJob(job, cancel, message);
    } catch (const std::exception& e) { // one job's failure never stops the others
        message = e.what();
        return JobState::Failed;
    }
}

// Stored once the configuration has a run in the workspace (Workspace::planOrder() lists the stored order
// and then every configuration with runs, so the new one follows; jobs run in plan order, so the order is the
// plan's). A configuration whose every job failed never enters it.
void RunOrchestrator::recordPlanOrder() {
    ws_.setPlanOrder(ws_.planOrder());
}

JobState RunOrchestrator::runJob(const JobSpec& job, const std::atomic<bool>& cancel, std::string& message) {
    if (findCompletedRun(ws_, plan_, job)) {
        message = "already in the workspace";
        return JobState::Skipped;
    }
    report(job, JobState::Starting, backend_.name());
    JobSpec attempt = job;
    // What a cluster's ingest pods name the run (JobSpec::clusterRunId): jobs run one at a time, so the
    // id stays free until this one is ingested.
    for (const RunRecord& r : ws_.runs())
        attempt.clusterRunId = std::max(attempt.clusterRunId, r.id.value() + 1);
    if (auto left = backend_.attach(attempt, progress_)) {
        // Its output folder holds the notes of the run that started it; its traces are still to come.
        std::error_code ec;
        std::filesystem::create_directories(job.outputDir, ec);
        const std::string how = "attached to the job an earlier cnp run left (" + attempt.attempt + ")";
        if (detach_)
            return leave(attempt, *left, how, message);
        report(job, JobState::Running, how + "; " + job.outputDir);
        return runStarted(attempt, *left, cancel, message);
    }
    attempt.attempt = attemptName(prepareOutputDir(job.outputDir));
    auto running = backend_.start(attempt, progress_);
    if (detach_)
        return leave(attempt, *running, "submitted (" + attempt.attempt + ")", message);
    report(job, JobState::Running, job.outputDir);
    return runStarted(attempt, *running, cancel, message);
}

JobState RunOrchestrator::leave(const JobSpec& job, RunningJob& running, const std::string& how,
                                std::string& message) {
    running.detach();
    message = how + " and left running as " + job.jobName + "; run the same cnp run again to attach";
    return JobState::Detached;
}

JobState RunOrchestrator::runStarted(const JobSpec& job, RunningJob& running, const std::atomic<bool>& cancel,
                                     std::string& message) {
    running.setCancelRequest(&cancel);
    // The timeout counts from when the workload runs on every rank (RunningJob::workloadRunning), not
    // from submission: queueing, scheduling and image pulls are not the run's time.
    std::optional<Clock::time_point> started;
    const auto limit = std::chrono::seconds(job.timeoutSeconds);
    while (!running.poll()) {
        if (!started && running.workloadRunning())
            started = Clock::now();
        if (cancel.load()) {
            running.cancel();
            running.collect(); // the logs stay in the output folder
            message = "stopped on request";
            return JobState::Cancelled;
        }
        if (job.timeoutSeconds > 0 && started && Clock::now() - *started > limit) {
            running.cancel();
            running.collect();
            message = "timed out after " + std::to_string(job.timeoutSeconds) + " s";
            return JobState::Failed;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(pollMs_));
    }
    return finishJob(job, running, message);
}

JobState RunOrchestrator::finishJob(const JobSpec& job, RunningJob& running, std::string& message) {
    const int code = *running.poll();
    report(job, JobState::Collecting);
    std::string logs, lost; // lost: why traces did not all come back whole (what did stays on disk)
    try {
        logs = running.collect();
    } catch (const InputError& e) {
        lost = e.what();
    }
    if (code != 0) {
        // Why: the engine's own error when it failed (launch/EngineFailure), else what the workload said
        // last (usually why it failed); the folder follows.
        const EngineFailure engine = running.failure(code);
        const std::string tail = logTail(logs);
        const std::string cause = !engine.cause.empty() ? engine.cause : tail;
        message = "exit code " + std::to_string(code) + (cause.empty() ? "" : ": " + cause) + "; logs in " +
                  job.outputDir;
        if (engine.everyJob) // every other job would fail the same way: none is started
            abandoned_ = engine.cause + " (as " + job.runName + ")";
        if (!lost.empty())
            message += "; " + lost;
        return JobState::Failed;
    }
    if (!lost.empty()) {
        message = lost;
        return JobState::Failed;
    }
    report(job, JobState::Ingesting);
    const LogFigures figures = parseLogFigures(logs, plan_.logMetric, plan_.path);
    const RunId runId =
        ingestJob(ws_, plan_, job, backend_.name(), figures, running.runAttributes(), running.summaryFiles());
    message = "run " + job.runName + " (id " + std::to_string(runId.value()) + ")";
    char figure[64] = "";
    if (figures.throughput)
        std::snprintf(figure, sizeof figure, ", log %.6g %s", *figures.throughput,
                      figures.throughputUnit.c_str());
    else if (figures.stepTimeSeconds)
        std::snprintf(figure, sizeof figure, ", log %.6g s/step", *figures.stepTimeSeconds);
    message += figure;
    return JobState::Done;
}

} // namespace cnp::launch
