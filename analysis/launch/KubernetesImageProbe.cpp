#include "launch/KubernetesImageProbe.h"

#include "core/InputError.h"
#include "launch/ImageTraceCheck.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesManifests.h"
#include "launch/Subprocess.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <thread>

namespace cnp::launch {

namespace {

using Clock = std::chrono::steady_clock;

const char* member(const rapidjson::Value& v, const char* key) {
    return v.IsObject() && v.HasMember(key) && v[key].IsString() ? v[key].GetString() : nullptr;
}

const rapidjson::Value* object(const rapidjson::Value& v, const char* key) {
    return v.IsObject() && v.HasMember(key) && v[key].IsObject() ? &v[key] : nullptr;
}

// What the cluster said, safe for a terminal: control characters as '?', at most 300 bytes. The kubelet's
// messages quote the image's own text (a missing program's path).
std::string printable(const char* text) {
    std::string out = text ? std::string(text).substr(0, 300) : std::string();
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = '?';
    return out;
}

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

bool ended(const ProbePodStatus& s) {
    return s.phase == "Succeeded" || s.phase == "Failed";
}

// The probe container's state (waiting or terminated: its reason and message), else the pod's own reason
// (DeadlineExceeded), else why it is not scheduled (the PodScheduled condition).
void readReason(const rapidjson::Value& status, ProbePodStatus& s) {
    if (status.HasMember("containerStatuses") && status["containerStatuses"].IsArray())
        for (const auto& c : status["containerStatuses"].GetArray()) {
            const rapidjson::Value* state = object(c, "state");
            if (!state || !member(c, "name") || std::string(member(c, "name")) != "probe")
                continue;
            for (const char* kind : {"waiting", "terminated"})
                if (const rapidjson::Value* st = object(*state, kind); st && member(*st, "reason")) {
                    s.reason = printable(member(*st, "reason"));
                    s.message = printable(member(*st, "message"));
                    return;
                }
        }
    if (const char* reason = member(status, "reason")) {
        s.reason = printable(reason);
        s.message = printable(member(status, "message"));
        return;
    }
    if (status.HasMember("conditions") && status["conditions"].IsArray())
        for (const auto& c : status["conditions"].GetArray())
            if (const char* type = member(c, "type"); type && std::string(type) == "PodScheduled" &&
                                                      member(c, "status") &&
                                                      std::string(member(c, "status")) == "False") {
                s.reason = printable(member(c, "reason"));
                s.message = printable(member(c, "message"));
            }
}

// The text after an image's name in a note or problem: "(<reason>: <message>)", or "(<phase>)".
std::string said(const ProbePodStatus& s) {
    std::string text = s.reason.empty() ? (s.phase.empty() ? "not reported" : s.phase) : s.reason;
    if (!s.message.empty())
        text += ": " + s.message;
    return "(" + text + ")";
}

// SIGINT and SIGTERM held while it lives (the handler only records the signal), then the previous
// handlers restored and a held signal raised again: the probe pods are deleted before a Ctrl-C acts.
volatile std::sig_atomic_t gHeldSignal = 0;
extern "C" void holdSignal(int sig) {
    gHeldSignal = sig;
}

class HeldSignals {
public:
    HeldSignals() {
        gHeldSignal = 0;
        struct sigaction a = {};
        a.sa_handler = holdSignal;
        a.sa_flags = SA_RESTART;
        sigemptyset(&a.sa_mask);
        sigaction(SIGINT, &a, &oldInt_);
        sigaction(SIGTERM, &a, &oldTerm_);
    }
    ~HeldSignals() {
        sigaction(SIGINT, &oldInt_, nullptr);
        sigaction(SIGTERM, &oldTerm_, nullptr);
        if (const int sig = gHeldSignal) {
            gHeldSignal = 0;
            std::raise(sig);
        }
    }
    HeldSignals(const HeldSignals&) = delete;
    HeldSignals& operator=(const HeldSignals&) = delete;
    static bool held() { return gHeldSignal != 0; }

private:
    struct sigaction oldInt_ = {}, oldTerm_ = {};
};

// The probe pods of one study, from creation to deletion (in the destructor, whatever happened).
class ClusterProbe {
public:
    ClusterProbe(const plan::Plan& plan, const KubectlOptions& k, std::vector<ImageProbeTarget> targets,
                 const std::function<void(const std::string&)>& note)
        : plan_(plan), k_(k), targets_(std::move(targets)), note_(note) {}
    ~ClusterProbe() { deletePods(); }
    ClusterProbe(const ClusterProbe&) = delete;
    ClusterProbe& operator=(const ClusterProbe&) = delete;

    // Replaces what a killed run left under the same names, then creates every pod at once. Throws
    // InputError naming the plan when the cluster refuses one (a quota, an admission policy).
    void create() {
        std::vector<std::string> args = {"delete"};
        for (const auto& t : targets_)
            args.push_back("pod/" + t.pod);
        args.insert(args.end(), {"--ignore-not-found", "--timeout=60s"});
        kubectl(args);
        std::string yaml;
        for (const auto& t : targets_)
            yaml += imageProbeManifest(plan_, t.job, t.pod, traceProbeScript());
        created_ = true;
        const ProcessResult r = kubectl({"create", "--validate=false", "-f", "-", "-o", "name"}, yaml);
        if (r.exitCode != 0)
            throw InputError(targets_.front().job.planPath,
                             "the image probe pods were not created (kubectl create: " + firstLine(r.err) +
                                 "); kubernetes.probeImages: false runs the study without them");
    }

    // Polls until every pod has ended or could not pull its image, probeSeconds have passed, or a signal is
    // held; false for the signal.
    bool waitForAll() {
        const auto until = Clock::now() + std::chrono::seconds(plan_.kubernetes.probeSeconds);
        const std::string selector = "cnp.role=probe,cnp.plan=" + dnsLabel(plan_.name, 63);
        while (Clock::now() < until) {
            if (const ProcessResult r = kubectl({"get", "pods", "-l", selector, "-o", "json"});
                r.exitCode == 0)
                for (auto& [name, status] : parseProbePods(r.out))
                    statuses_[name] = status;
            if (std::all_of(targets_.begin(), targets_.end(), [this](const ImageProbeTarget& t) {
                    const ProbePodStatus& s = statuses_[t.pod];
                    return ended(s) || isPullFailure(s.reason) || isStartFailure(s.reason);
                }))
                return true;
            for (int slept = 0; slept < k_.pollMs && !HeldSignals::held(); slept += 50)
                std::this_thread::sleep_for(std::chrono::milliseconds(std::min(50, k_.pollMs - slept)));
            if (HeldSignals::held())
                return false;
        }
        return true;
    }

    // Each image's verdict from its pod: problems (untraceable, not pulled) returned; images that could not
    // be checked noted.
    std::vector<std::string> judge() {
        std::vector<std::string> problems;
        for (const auto& t : targets_) {
            const ProbePodStatus& s = statuses_[t.pod];
            if (isPullFailure(s.reason)) {
                problems.push_back("image " + t.use.image + " (" + configs(t) +
                                   "): the cluster could not pull it " + said(s));
                continue;
            }
            const TraceProbe probe =
                ended(s) ? parseTraceProbe(kubectl({"logs", t.pod, "-c", "probe"}).out) : TraceProbe{};
            if (!probe.ran) {
                notCheckedNote(t, s);
                continue;
            }
            if (std::string problem = untraceableImageProblem(t.use, probe); !problem.empty())
                problems.push_back(problem);
        }
        return problems;
    }

    void deletePods() {
        if (!created_)
            return;
        created_ = false;
        std::vector<std::string> args = {"delete"};
        for (const auto& t : targets_)
            args.push_back("pod/" + t.pod);
        args.insert(args.end(), {"--ignore-not-found", "--wait=false"});
        kubectl(args);
    }

private:
    ProcessResult kubectl(const std::vector<std::string>& args, const std::string& input = {}) const {
        return runProcess(kubectlArgv(k_, args), {}, input);
    }

    static std::string configs(const ImageProbeTarget& t) {
        std::string s;
        for (const auto& c : t.use.configs)
            s += (s.empty() ? "" : ", ") + c;
        return s;
    }

    void notCheckedNote(const ImageProbeTarget& t, const ProbePodStatus& s) const {
        if (!note_)
            return;
        std::string how = "its probe pod " + t.pod;
        if (ended(s))
            how += " ended without the script's output";
        else if (isStartFailure(s.reason))
            how += " could not start";
        else
            how += " did not end within " + std::to_string(plan_.kubernetes.probeSeconds) + " s";
        note_("image " + t.use.image + " could not be checked for tracing (" + how + " " + said(s) +
              "); its jobs run as they are");
    }

    const plan::Plan& plan_;
    KubectlOptions k_;
    std::vector<ImageProbeTarget> targets_;
    std::function<void(const std::string&)> note_;
    std::map<std::string, ProbePodStatus> statuses_; // by pod name: the last state seen
    bool created_ = false;
};

} // namespace

std::vector<ImageProbeTarget> imageProbeTargets(const plan::Plan& plan, const std::vector<JobSpec>& jobs) {
    std::vector<ImageProbeTarget> targets;
    if (!plan.kubernetes.probeImages)
        return targets;
    for (const auto& j : jobs) {
        if (!j.traced)
            continue;
        auto it = std::find_if(targets.begin(), targets.end(),
                               [&](const ImageProbeTarget& t) { return t.use.image == j.image; });
        if (it == targets.end())
            it = targets.insert(targets.end(),
                                ImageProbeTarget{{j.image, {}}, j, probePodName(plan, j.image)});
        if (std::find(it->use.configs.begin(), it->use.configs.end(), j.config) == it->use.configs.end())
            it->use.configs.push_back(j.config);
    }
    return targets;
}

std::string probePodName(const plan::Plan& plan, const std::string& image) {
    std::uint32_t h = 2166136261u; // FNV-1a over "<plan hash>/<image>"
    for (unsigned char c : plan.hash + "/" + image)
        h = (h ^ c) * 16777619u;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", h);
    return "cnp-probe-" + std::string(buf);
}

std::string imageProbeManifests(const plan::Plan& plan, const std::vector<JobSpec>& jobs) {
    std::string yaml;
    for (const auto& t : imageProbeTargets(plan, jobs))
        yaml += imageProbeManifest(plan, t.job, t.pod, traceProbeScript());
    return yaml;
}

std::map<std::string, ProbePodStatus> parseProbePods(const std::string& json) {
    std::map<std::string, ProbePodStatus> pods;
    rapidjson::Document d;
    if (d.Parse(json.c_str()).HasParseError() || !d.IsObject() || !d.HasMember("items") ||
        !d["items"].IsArray())
        return pods;
    for (const auto& item : d["items"].GetArray()) {
        const rapidjson::Value* meta = object(item, "metadata");
        const char* name = meta ? member(*meta, "name") : nullptr;
        if (!name)
            continue;
        ProbePodStatus s;
        if (const rapidjson::Value* status = object(item, "status")) {
            if (const char* phase = member(*status, "phase"))
                s.phase = printable(phase);
            readReason(*status, s);
        }
        pods[name] = s;
    }
    return pods;
}

bool isPullFailure(const std::string& reason) {
    return reason == "ErrImagePull" || reason == "ImagePullBackOff" || reason == "InvalidImageName" ||
           reason == "ErrImageNeverPull";
}

bool isStartFailure(const std::string& reason) {
    return reason == "CreateContainerConfigError" || reason == "CreateContainerError" ||
           reason == "RunContainerError" || reason == "StartError" || reason == "ContainerCannotRun";
}

void probeImagesOnCluster(const plan::Plan& plan, const KubectlOptions& k, const std::vector<JobSpec>& jobs,
                          const std::function<void(const std::string&)>& note) {
    std::vector<ImageProbeTarget> targets = imageProbeTargets(plan, jobs);
    if (targets.empty())
        return;
    const std::string planPath = targets.front().job.planPath;
    if (note)
        note("checking " + std::to_string(targets.size()) + " image" + (targets.size() == 1 ? "" : "s") +
             " for tracing on the cluster (one probe pod each, at most " +
             std::to_string(plan.kubernetes.probeSeconds) + " s)");
    std::vector<std::string> problems;
    bool interrupted = false;
    {
        const HeldSignals held;
        ClusterProbe probe(plan, k, std::move(targets), note);
        probe.create();
        interrupted = !probe.waitForAll();
        if (!interrupted)
            problems = probe.judge();
    } // the pods deleted, then a held signal delivered
    if (interrupted)
        throw InputError(planPath, "interrupted while the images were checked for tracing: the probe pods "
                                   "were deleted and no job was started");
    refuseUntraceableImages(planPath, problems);
}

} // namespace cnp::launch
