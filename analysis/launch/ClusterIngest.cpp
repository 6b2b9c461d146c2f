#include "launch/ClusterIngest.h"

#include "core/InputError.h"
#include "core/RunAttributeKeys.h"
#include "launch/FetchPod.h"
#include "launch/KubernetesManifests.h"
#include "launch/KubernetesObjects.h"
#include "launch/ResourceWatch.h"
#include "launch/Subprocess.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kSummarySuffix = ".summary.cnpdb";

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

std::string lastLine(std::string s) {
    while (!s.empty() && s.back() == '\n')
        s.pop_back();
    const auto nl = s.rfind('\n');
    return nl == std::string::npos ? s : s.substr(nl + 1);
}

// Seconds with millisecond precision, C locale (run attribute values).
std::string secondsText(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", seconds);
    return buf;
}

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string summaryName(int k) {
    return "shard-" + std::to_string(k) + kSummarySuffix;
}

std::string problemsText(const std::vector<std::string>& problems) {
    std::string all;
    for (const auto& p : problems)
        all += (all.empty() ? "" : "; ") + p;
    return all;
}

} // namespace

ClusterIngest::ClusterIngest(const plan::Plan& plan, const KubectlOptions& k, const JobSpec& job,
                             ExecArgv execArgv, Note note, Note collecting, std::function<bool()> cancelled)
    : plan_(plan), k_(k), job_(job), execArgv_(std::move(execArgv)), note_(std::move(note)),
      collecting_(std::move(collecting)), cancelled_(std::move(cancelled)) {}

ClusterIngest::~ClusterIngest() {
    if (created_)
        kubectl({"delete", "job/" + ingestJobName(job_), "--ignore-not-found", "--wait=false"});
}

ProcessResult ClusterIngest::kubectl(const std::vector<std::string>& args, const std::string& input) const {
    return runProcess(kubectlArgv(k_, args), {}, input);
}

std::vector<RemoteFile> ClusterIngest::list(const std::string& dir, const std::string& what) {
    return listRemoteFolder(execArgv_, dir, k_.fetchTries, job_.outputDir, what);
}

std::map<std::string, std::string> ClusterIngest::checksums(const std::string& dir,
                                                            const std::vector<std::string>& globs,
                                                            const std::string& what) {
    return checksumRemoteFolder(execArgv_, dir, globs, k_.fetchTries, job_.outputDir, what);
}

void ClusterIngest::checkTraces() {
    const std::string remote = podTracesDir(job_);
    note_("traces: checked in place in " + remote + " (" + job_.attempt + ")");
    const std::vector<RemoteFile> listing = list(remote, "traces");
    const auto sums = listing.empty() ? std::map<std::string, std::string>{}
                                      : checksums(remote, {"*.cnpt", "*.cnpt.gz"}, "traces");
    const FetchOutcome got = checkTracesInPlace(listing, remote, job_.outputDir, fetchOptionsFor(k_, job_),
                                                catThrough(execArgv_), sums, collecting_);
    int traces = 0;
    for (const auto& f : listing)
        if (isTraceName(f.name)) {
            traces += 1;
            traceBytes_ += f.size;
        }
    const std::string summary = "traces: " + std::to_string(traces) + " checked in place (" +
                                byteText(traceBytes_) + ", not fetched); " +
                                std::to_string(got.problems.size()) + " problems";
    note_(summary);
    collecting_(summary);
    for (const auto& p : got.problems)
        note_("traces: " + p);
    if (!got.problems.empty())
        throw InputError(job_.outputDir, std::to_string(got.problems.size()) +
                                             " trace problem(s): " + problemsText(got.problems));
}

// Each ingest pod's log into <outputDir>/ingest-K.txt (not *.log: those are the workload's, read for its
// figures); `firstFailure` gets the last line of the first failed pod's.
void ClusterIngest::keepIngestLogs(std::string& firstFailure) {
    const ProcessResult r =
        kubectl({"get", "pods", "-l", "cnp.job=" + job_.jobName + ",cnp.role=ingest", "-o", "json"});
    std::vector<PodState> pods = r.exitCode == 0 ? parsePods(r.out) : std::vector<PodState>{};
    std::sort(pods.begin(), pods.end(), [](const PodState& a, const PodState& b) { return a.rank < b.rank; });
    for (const auto& pod : pods) {
        const ProcessResult log = kubectl({"logs", pod.name, "-c", "ingest"});
        std::ofstream(fs::path(job_.outputDir) / ("ingest-" + std::to_string(pod.rank) + ".txt"),
                      std::ios::binary)
            << log.out;
        if (pod.phase == "Failed" && firstFailure.empty())
            firstFailure = "shard " + std::to_string(pod.rank) + ": " + lastLine(log.out);
    }
}

void ClusterIngest::runIngestJob() {
    const std::string name = ingestJobName(job_);
    const auto started = Clock::now();
    const ProcessResult created =
        kubectl({"create", "--validate=false", "-f", "-", "-o", "name"},
                ingestJobManifest(plan_, job_, groups(), job_.clusterRunId, k_.ingestTimeoutSeconds));
    if (created.exitCode != 0)
        throw InputError(job_.outputDir,
                         "the ingest job " + name + " was not created: " + firstLine(created.err));
    created_ = true;
    note_("ingest: " + name + ", " + std::to_string(groups()) + " shards");
    collecting_("ingest: " + name + " on the cluster, " + std::to_string(groups()) + " shards");
    const std::string notes = (fs::path(job_.outputDir) / "kubectl.txt").string();
    const std::vector<std::string> watch = {"--watch", "-o", "json", "--output-watch-events"};
    auto argv = [&](std::vector<std::string> args) {
        args.insert(args.end(), watch.begin(), watch.end());
        return kubectlArgv(k_, args, k_.watchTimeoutSeconds);
    };
    ResourceWatch jobWatch(argv({"get", "job", name}), notes, k_.pollMs);
    ResourceWatch podWatch(argv({"get", "pods", "-l", "cnp.job=" + job_.jobName + ",cnp.role=ingest"}), notes,
                           k_.pollMs);
    std::map<int, std::string> phases;
    JobStatus end;
    const auto until = started + std::chrono::seconds(k_.ingestTimeoutSeconds);
    bool stopped = false;
    while (!end.complete && !end.failed && Clock::now() < until && !(stopped = cancelled_ && cancelled_())) {
        for (const auto& text : podWatch.poll()) {
            rapidjson::Document d;
            std::string type;
            if (parseWatchEvent(text, d, type) && type != "DELETED" && type != "ERROR")
                if (auto p = parsePod(d["object"]); p && !p->phase.empty() && phases[p->rank] != p->phase) {
                    phases[p->rank] = p->phase;
                    collecting_("ingest: shard " + std::to_string(p->rank) + ": " + p->phase + " (" +
                                p->name + ")");
                }
        }
        for (const auto& text : jobWatch.poll()) {
            rapidjson::Document d;
            std::string type;
            if (!parseWatchEvent(text, d, type))
                continue;
            end = parseJobStatus(d["object"]);
            end.failed = end.failed || type == "DELETED";
        }
        if (!end.complete && !end.failed)
            std::this_thread::sleep_for(std::chrono::milliseconds(k_.pollMs));
    }
    jobWatch.stop();
    podWatch.stop();
    ingestSeconds_ = secondsSince(started);
    std::string failure;
    keepIngestLogs(failure);
    if (stopped) { // the destructor deletes the Job and its pods
        note_("ingest: " + name + " stopped on request after " + secondsText(ingestSeconds_) + " s");
        throw InputError(job_.outputDir, "the ingest job " + name +
                                             " was stopped on request; the traces stay on the volume (run "
                                             "the same cnp run again to ingest them)");
    }
    if (end.complete && !end.failed) {
        note_("ingest: " + name + " complete in " + secondsText(ingestSeconds_) + " s");
        return;
    }
    const std::string why =
        end.failed ? "failed" : "did not end within " + std::to_string(k_.ingestTimeoutSeconds) + " s";
    note_("ingest: " + name + " " + why + (failure.empty() ? "" : ": " + failure));
    throw InputError(job_.outputDir,
                     "the ingest job " + name + " " + why + (failure.empty() ? "" : " (" + failure + ")") +
                         "; its pods' logs are in ingest-K.txt; the traces stay on the volume");
}

std::vector<std::string> ClusterIngest::fetchSummaries() {
    const std::string remote = podShardsDir(job_, kPodTracesDir);
    std::vector<RemoteFile> wanted;
    std::vector<std::string> problems, files;
    const std::vector<RemoteFile> listing = list(remote, "summaries");
    for (int k = 0; k < groups(); ++k) {
        const auto it = std::find_if(listing.begin(), listing.end(),
                                     [&](const RemoteFile& f) { return f.name == summaryName(k); });
        if (it == listing.end())
            problems.push_back("shard " + std::to_string(k) + ": no " + summaryName(k) + " in " + remote);
        else
            wanted.push_back(*it);
    }
    if (!problems.empty())
        throw InputError(job_.outputDir,
                         std::to_string(problems.size()) + " summary problem(s): " + problemsText(problems));
    const auto sums = checksums(remote, {std::string("*") + kSummarySuffix}, "summaries");
    const std::string local = (fs::path(job_.outputDir) / "summaries").string();
    std::error_code ec;
    fs::create_directories(local, ec);
    const FetchOutcome got = fetchFiles(wanted, remote, local, fetchOptionsFor(k_, job_),
                                        catThrough(execArgv_), sums, collecting_);
    note_("summaries: " + got.summary());
    collecting_("summaries: " + got.summary());
    figures_ = fetchFigures(got);
    figures_.insert(figures_.end(),
                    {{"ingest.location", "cluster"},
                     {"ingest.shards", std::to_string(groups())},
                     {"ingest.trace_bytes", std::to_string(traceBytes_)},
                     {"ingest.seconds", secondsText(ingestSeconds_)},
                     // Where the run's events are: the shards on the traces volume (PVC:folder).
                     {kIngestEventsAttribute,
                      plan_.kubernetes.tracesPvc + ":" + job_.jobName + "/" + job_.attempt + "/shards"}});
    for (const auto& p : got.problems)
        note_("summaries: " + p);
    if (!got.problems.empty())
        throw InputError(job_.outputDir, std::to_string(got.problems.size()) +
                                             " summary problem(s): " + problemsText(got.problems));
    for (const auto& f : wanted)
        files.push_back((fs::path(local) / f.name).string());
    return files;
}

std::vector<std::string> ClusterIngest::run(bool ingest) {
    checkTraces();
    if (!ingest)
        return {};
    // An earlier pass (a cnp run that died after the ingest Job ended, then attached to the job again)
    // left every summary file there: they are fetched as they are (ingest-shard writes one only whole).
    const auto there = list(podShardsDir(job_, kPodTracesDir), "summaries");
    int found = 0;
    for (int k = 0; k < groups(); ++k)
        found += std::any_of(there.begin(), there.end(),
                             [&](const RemoteFile& f) { return f.name == summaryName(k); });
    if (found == groups()) {
        note_("ingest: every summary file is on the volume already (an earlier pass): no ingest job");
        collecting_("ingest: every summary file is on the volume already: no ingest job");
    } else {
        runIngestJob();
    }
    return fetchSummaries();
}

} // namespace cnp::launch
