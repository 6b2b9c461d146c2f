#include "launch/KubernetesBackend.h"

#include "core/InputError.h"
#include "launch/ClusterIngest.h"
#include "launch/FetchPod.h"
#include "launch/KubernetesImageProbe.h"
#include "launch/KubernetesManifests.h"
#include "launch/KubernetesObjects.h"
#include "launch/LocalBackend.h"
#include "launch/ResourceWatch.h"
#include "launch/Subprocess.h"
#include "launch/TraceFetch.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::optional<JobState> rankState(const std::string& phase) {
    if (phase == "Pending")
        return JobState::Starting;
    if (phase == "Running")
        return JobState::Running;
    if (phase == "Succeeded")
        return JobState::Done;
    if (phase == "Failed")
        return JobState::Failed;
    return std::nullopt;
}

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

// kubectl's resource name for the plan's job kind.
std::string jobKind(const plan::Plan& plan) {
    return plan.kubernetes.jobKind == "PyTorchJob" ? "pytorchjob" : "job";
}

std::string annotation(const rapidjson::Value& object, const char* key) {
    if (!object.IsObject() || !object.HasMember("metadata") || !object["metadata"].IsObject())
        return {};
    const auto& meta = object["metadata"];
    if (!meta.HasMember("annotations"))
        return {};
    const char* v = member(meta["annotations"], key);
    return v ? v : "";
}

class KubernetesJob : public RunningJob {
public:
    // Creates the job's objects, or with `attached` watches the job an earlier run left (Backend::attach:
    // it exists; its fetch pod, if a run died fetching, is deleted so that collect() can make its own).
    KubernetesJob(const plan::Plan& plan, const KubectlOptions& k, const JobSpec& job,
                  ProgressListener progress, bool attached)
        : plan_(plan), k_(k), job_(job), progress_(std::move(progress)), kind_(jobKind(plan)),
          fetchPod_(plan, k, job) {
        if (attached) {
            kubectl({"delete", "pod/" + fetchPod(), "--ignore-not-found"});
            note("attached to " + kind_ + "/" + job_.jobName + " (" + job_.attempt + ")");
        } else {
            // Service and fetch pod of an attempt that was killed (attach() found no job, so none runs).
            kubectl({"delete", "service/" + job_.jobName, "pod/" + fetchPod(), "--ignore-not-found",
                     "--wait=false"});
            const ProcessResult r =
                kubectl({"create", "--validate=false", "-f", "-", "-o", "name"}, jobManifests(plan_, job_));
            if (r.exitCode != 0)
                throw InputError("kubectl create", firstLine(r.err));
        }
        const std::string notes = (fs::path(job_.outputDir) / "kubectl.txt").string();
        const std::vector<std::string> watch = {"--watch", "-o", "json", "--output-watch-events"};
        jobWatch_ =
            std::make_unique<ResourceWatch>(watchArgv({"get", kind_, job_.jobName}, watch), notes, k_.pollMs);
        podWatch_ = std::make_unique<ResourceWatch>(watchArgv({"get", "pods", "-l", podSelector()}, watch),
                                                    notes, k_.pollMs);
    }

    ~KubernetesJob() override { cleanup(); }

    // Reads what the two watches printed since the last call; never waits for the API server.
    std::optional<int> poll() override {
        if (result_)
            return result_;
        for (const auto& e : podWatch_->poll())
            onPodEvent(e);
        for (const auto& e : jobWatch_->poll())
            onJobEvent(e);
        if (result_) {
            stopWatches();
            reportPods(); // the pods' last phases, in case their watch is behind the Job's
        }
        return result_;
    }

    // Every rank's pod has left Pending (it runs, or already ended): admitted by the queue, scheduled, its
    // images pulled. From the pods' watch, as poll() read it.
    bool workloadRunning() const override {
        int started = 0;
        for (const auto& [rank, phase] : phases_)
            started += !phase.empty() && phase != "Pending";
        return started >= job_.nodes;
    }

    // The job, its Service and pods stay; nothing is deleted when this object goes.
    void detach() override {
        stopWatches();
        cleaned_ = true;
    }

    void cancel() override {
        stopWatches();
        cancelled_ = true;
        kubectl({"delete", kind_ + "/" + job_.jobName, "service/" + job_.jobName, "--ignore-not-found",
                 "--wait=false"});
        result_ = result_.value_or(130);
    }

    // The fetch's figures, and the image the nodes ran: status.imageID names it by digest
    // ("REPOSITORY@sha256:…"; docker's kubelet prefixes "docker-pullable://").
    std::vector<std::pair<std::string, std::string>> runAttributes() const override {
        auto a = fetchFigures_;
        std::string id = imageId_;
        if (const std::string prefix = "docker-pullable://"; id.rfind(prefix, 0) == 0)
            id.erase(0, prefix.size());
        if (id.find("@sha256:") != std::string::npos)
            a.emplace_back("launch.image_digest", id);
        else if (!id.empty())
            a.emplace_back("launch.image_id", id);
        return a;
    }

    std::string collect() override {
        for (const auto& pod : pods()) {
            if (!pod.imageId.empty())
                imageId_ = pod.imageId;
            const std::string container = kind_ == "job" ? "workload" : "pytorch";
            const ProcessResult r = kubectl({"logs", pod.name, "-c", container});
            std::ofstream(fs::path(job_.outputDir) / ("node" + std::to_string(pod.rank) + ".log"),
                          std::ios::binary)
                << r.out;
        }
        try {
            // A failed job's traces are fetched too: nothing collected is lost. With a cnp image they stay
            // on the volume: checked there, and ingested there when the job succeeded.
            if (job_.traced && !cancelled_ && plan_.kubernetes.cnpImage.empty())
                fetchTraces();
            else if (job_.traced && !cancelled_)
                ingestOnCluster();
        } catch (const InputError&) {
            cleanup();
            throw;
        }
        cleanup();
        return readLogs(job_.outputDir);
    }

private:
    ProcessResult kubectl(const std::vector<std::string>& args, const std::string& input = {}) const {
        return runProcess(kubectlArgv(k_, args), {}, input);
    }

    // A watch's kubectl: its request timeout bounds how long a silently stalled stream goes unnoticed.
    std::vector<std::string> watchArgv(std::vector<std::string> args, const std::vector<std::string>& watch) {
        args.insert(args.end(), watch.begin(), watch.end());
        return kubectlArgv(k_, args, k_.watchTimeoutSeconds);
    }

    void stopWatches() {
        if (jobWatch_)
            jobWatch_->stop();
        if (podWatch_)
            podWatch_->stop();
    }

    void onJobEvent(const std::string& text) {
        rapidjson::Document d;
        std::string type;
        if (!parseWatchEvent(text, d, type))
            return;
        if (type == "DELETED") { // not by us: we stop watching before we delete
            note("the " + kind_ + " was deleted while it ran");
            result_ = 1;
            return;
        }
        const JobStatus s = parseJobStatus(d["object"]);
        if (s.failed)
            result_ = 1;
        else if (s.complete)
            result_ = 0;
    }

    void onPodEvent(const std::string& text) {
        rapidjson::Document d;
        std::string type;
        if (parseWatchEvent(text, d, type) && type != "DELETED" && type != "ERROR")
            if (auto p = parsePod(d["object"]))
                reportPod(*p);
    }

    std::string fetchPod() const { return fetchPod_.name(); }
    std::string podSelector() const { return "cnp.job=" + job_.jobName + ",cnp.role=workload"; }

    std::vector<PodState> pods() const {
        const ProcessResult r = kubectl({"get", "pods", "-l", podSelector(), "-o", "json"});
        return r.exitCode == 0 ? parsePods(r.out) : std::vector<PodState>{};
    }

    // Per-rank progress: one event per rank whose phase changed since the last one reported.
    void reportPod(const PodState& p) {
        if (!p.imageId.empty())
            imageId_ = p.imageId;
        auto& last = phases_[p.rank];
        if (last == p.phase)
            return;
        last = p.phase;
        if (auto st = rankState(p.phase); st && progress_)
            progress_({job_.config, job_.repeat, p.rank, *st, p.name});
    }

    void reportPods() {
        for (const auto& p : pods())
            reportPod(p);
    }

    // Lists this attempt's folder through the helper pod, fetches and checks every trace; throws InputError
    // naming each missing, short or corrupt rank and file.
    void fetchTraces() {
        const std::string remote = podTracesDir(job_);
        note("traces: " + remote + " (" + job_.attempt + ")");
        if (!fetchPod_.start("traces not fetched"))
            throw InputError(job_.outputDir, "traces not fetched: the fetch pod " + fetchPod() +
                                                 " did not start within " +
                                                 std::to_string(k_.fetchTimeoutSeconds) + " s");
        const std::vector<RemoteFile> listing =
            listRemoteFolder(fetchPod_.exec(), remote, k_.fetchTries, job_.outputDir, "traces");
        const FetchOutcome got = launch::fetchTraces(listing, remote, job_.outputDir,
                                                     fetchOptionsFor(k_, job_), catThrough(fetchPod_.exec()),
                                                     [this](const std::string& m) { collecting(m); });
        note("traces: " + got.summary());
        collecting("traces: " + got.summary());
        fetchFigures_ = fetchFigures(got);
        if (got.problems.empty())
            return;
        std::string all;
        for (const auto& p : got.problems) {
            note("traces: " + p);
            all += (all.empty() ? "" : "; ") + p;
        }
        throw InputError(job_.outputDir, std::to_string(got.problems.size()) + " trace problem(s): " + all);
    }

    std::vector<std::string> summaryFiles() const override { return summaryFiles_; }

    // docs/launcher.md, "Ingest on the cluster" (launch/ClusterIngest).
    void ingestOnCluster() {
        if (!fetchPod_.start("traces not fetched"))
            throw InputError(job_.outputDir, "traces not checked: the fetch pod " + fetchPod() +
                                                 " did not start within " +
                                                 std::to_string(k_.fetchTimeoutSeconds) + " s");
        ClusterIngest ingest(
            plan_, k_, job_, fetchPod_.exec(), [this](const std::string& m) { note(m); },
            [this](const std::string& m) { collecting(m); }, [this] { return cancelRequested(); });
        summaryFiles_ = ingest.run(result_ == 0);
        fetchFigures_ = ingest.figures();
    }

    void collecting(const std::string& message) {
        if (progress_)
            progress_({job_.config, job_.repeat, std::nullopt, JobState::Collecting, message});
    }

    // kubectl trouble worth keeping next to the job's logs (not *.log: those are the workload's).
    void note(const std::string& line) const {
        std::ofstream(fs::path(job_.outputDir) / "kubectl.txt", std::ios::app) << line << '\n';
    }

    void cleanup() {
        if (cleaned_)
            return;
        cleaned_ = true;
        stopWatches();
        kubectl({"delete", kind_ + "/" + job_.jobName, "service/" + job_.jobName, "pod/" + fetchPod(),
                 "--ignore-not-found", "--wait=false"});
    }

    const plan::Plan& plan_;
    KubectlOptions k_;
    JobSpec job_;
    ProgressListener progress_;
    std::string kind_;
    std::optional<int> result_;
    bool cancelled_ = false, cleaned_ = false;
    std::vector<std::pair<std::string, std::string>> fetchFigures_; // set by fetchTraces, ingestOnCluster
    std::vector<std::string> summaryFiles_;                         // set by ingestOnCluster
    std::string imageId_; // the workload's status.imageID, from the pods seen

    FetchPod fetchPod_;
    std::unique_ptr<ResourceWatch> jobWatch_, podWatch_;
    std::map<int, std::string> phases_;
};

} // namespace

std::vector<std::string> kubectlArgv(const KubectlOptions& k, const std::vector<std::string>& args,
                                     int requestTimeoutSeconds) {
    // A bounded wait per request: an API server that stops answering must not hang the run (or its cancel).
    std::vector<std::string> argv = {k.program,
                                     "--request-timeout=" + std::to_string(requestTimeoutSeconds) + "s"};
    const std::pair<const char*, const std::string*> opts[] = {
        {"--kubeconfig", &k.kubeconfig}, {"--context", &k.context}, {"--namespace", &k.namespace_}};
    for (const auto& [flag, value] : opts)
        if (!value->empty())
            argv.insert(argv.end(), {flag, *value});
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

KubernetesBackend::KubernetesBackend(plan::Plan plan, KubectlOptions k)
    : plan_(std::move(plan)), k_(std::move(k)) {
    if (k_.namespace_.empty())
        k_.namespace_ = plan_.kubernetes.namespace_;
    else
        plan_.kubernetes.namespace_ = k_.namespace_;
}

// Every object a run of the job creates: the Job (or PyTorchJob) and its Service, the fetch pod, and with a
// cnp image the ingest Job.
std::string KubernetesBackend::describe(const JobSpec& job) const {
    std::string out = jobManifests(plan_, job) + traceFetcherManifest(plan_, job);
    if (job.traced && !plan_.kubernetes.cnpImage.empty()) // one ingest pod per node (ClusterIngest)
        out += ingestJobManifest(plan_, job, job.nodes, job.clusterRunId, k_.ingestTimeoutSeconds);
    return out;
}

void KubernetesBackend::prepare(const std::vector<JobSpec>& jobs,
                                const std::function<void(const std::string&)>& note) {
    probeImagesOnCluster(plan_, k_, jobs, note);
}

std::string KubernetesBackend::describePrepare(const std::vector<JobSpec>& jobs) const {
    return imageProbeManifests(plan_, jobs);
}

std::unique_ptr<RunningJob> KubernetesBackend::start(const JobSpec& job, const ProgressListener& progress) {
    return std::make_unique<KubernetesJob>(plan_, k_, job, progress, false);
}

std::unique_ptr<RunningJob> KubernetesBackend::attach(JobSpec& job, const ProgressListener& progress) {
    const std::string object = jobKind(plan_) + "/" + job.jobName;
    const ProcessResult r = runProcess(kubectlArgv(k_, {"get", object, "-o", "json"}));
    if (r.exitCode != 0) {
        if (r.err.find("(NotFound)") != std::string::npos)
            return nullptr;
        throw InputError("kubectl get " + object, firstLine(r.err));
    }
    rapidjson::Document d;
    if (d.Parse(r.out.c_str()).HasParseError() || !d.IsObject())
        throw InputError("kubectl get " + object, "the answer is not a JSON object");
    // Only a job this plan (this very version of it) started for this configuration is taken over; any
    // other is left alone, running or not: deleting it could end someone's hours of training.
    const std::string hash = annotation(d, "cnp.plan/hash"), config = annotation(d, "cnp.config/name");
    const std::string attempt = annotation(d, "cnp.job/attempt");
    if (hash != plan_.hash || config != job.config || !isAttemptName(attempt))
        throw InputError(job.planPath,
                         object + " exists but was not started by this plan for " + job.config +
                             (hash != plan_.hash ? " (another plan, or another version of this one)" : "") +
                             ": it was left alone; delete it (kubectl delete " + object +
                             ") or run in another namespace");
    job.attempt = attempt;
    return std::make_unique<KubernetesJob>(plan_, k_, job, progress, true);
}

} // namespace cnp::launch
