#include "launch/ContainerBackend.h"

#include "core/InputError.h"
#include "launch/ImageTraceCheck.h"
#include "launch/JobPlanner.h"
#include "launch/LocalBackend.h"
#include "launch/Subprocess.h"
#include "plan/ContainerPrivilege.h"
#include "plan/ImageReference.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;

// What reaches the engine from the plan (or --gpu-flags) must grant no privilege over the host, and the
// image must be an image, not an option: the same rules the linter reports (plan/ContainerPrivilege,
// plan/ImageReference), checked here again because not every argv comes from a linted plan.
void checkPrivilege(const JobSpec& job, const ContainerSettings& s) {
    const std::string where = "configuration '" + job.config + "': ";
    if (std::string why = plan::imageReferenceProblem(job.image); !why.empty())
        throw InputError(job.planPath, where + "image: " + why);
    const std::pair<const char*, const std::vector<std::string>*> fields[] = {
        {"container gpu flags", &s.gpuFlags}, {"container.extraArgs", &s.extraArgs}};
    for (const auto& [field, words] : fields)
        for (const plan::FlagProblem& p : plan::privilegeGrantingFlags(*words))
            throw InputError(job.planPath, std::string(field) + ": " + p.message + "; refused");
    for (const auto& m : job.mounts)
        if (std::string why = plan::hostPathProblem(m.hostPath); !why.empty())
            throw InputError(job.planPath, where + "mount " + m.containerPath + ": " + why + "; refused");
}

// podman and docker split -v on ':' and --mount on ','; neither can be escaped.
void checkMountPath(const JobSpec& job, const std::string& path) {
    if (path.empty() || path.find_first_of(":,") != std::string::npos)
        throw InputError(job.planPath, "configuration '" + job.config + "': mount path '" + path +
                                           "' is empty or holds ':' or ','");
}

std::string volume(const std::string& host, const std::string& container, bool readOnly) {
    return host + ":" + container + (readOnly ? ":ro" : ":rw");
}

class ContainerJob : public RunningJob {
public:
    ContainerJob(const std::vector<std::string>& argv, const ContainerSettings& s, const JobSpec& job,
                 ImageFacts image)
        : engine_(s.engine), engineEnv_(s.engineEnv), container_(job.jobName), dir_(job.outputDir),
          imageName_(job.image), image_(std::move(image)),
          group_(argv, s.engineEnv, (fs::path(job.outputDir) / "node0.log").string()) {}

    ~ContainerJob() override { cancel(); } // a job abandoned by an error leaves no container behind

    std::optional<int> poll() override { return group_.poll(); }

    void cancel() override {
        if (group_.poll())
            return;
        // `ENGINE run` creates the container some time after it starts (an image to unpack, a busy daemon):
        // a stop sent before then finds nothing, and a client killed in the middle of its create leaves a
        // container the daemon finishes creating. So first the container must exist (or the client be gone).
        waitUntil([&] { return exists() || group_.poll().has_value(); });
        // The engine stops and (--rm) removes its container; killing only the client could leave it running.
        runProcess({engine_, "stop", "--time", "5", container_}, engineEnv_);
        group_.stop(10000);
        runProcess({engine_, "rm", "--force", container_}, engineEnv_); // fails harmlessly when gone
        waitUntil([&] { return !exists(); }); // --rm's removal may still be under way
    }

    std::string collect() override { return readLogs(dir_); }

    // What the engine said the image is when the study began (ContainerBackend::prepare).
    std::vector<std::pair<std::string, std::string>> runAttributes() const override {
        std::vector<std::pair<std::string, std::string>> a;
        if (!image_.id.empty())
            a.emplace_back("launch.image_id", image_.id);
        if (!image_.repoDigest.empty())
            a.emplace_back("launch.image_digest", image_.repoDigest);
        return a;
    }

    // The engine's error lines come first in the log, before anything of the workload's.
    EngineFailure failure(int exitCode) const override {
        std::ifstream in(fs::path(dir_) / "node0.log", std::ios::binary);
        std::string head(kLogHeadBytes, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        return diagnoseEngineFailure(engine_, exitCode, head, imageName_);
    }

private:
    bool exists() const {
        return runProcess({engine_, "container", "inspect", "--format", "{{.Id}}", container_}, engineEnv_)
                   .exitCode == 0;
    }

    // Checks `done` every 100 ms for at most kCancelWaitSeconds: a daemon that stops answering cannot
    // hang the cancel.
    template <class F> static void waitUntil(F done) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(kCancelWaitSeconds);
        while (!done() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }

    static constexpr int kCancelWaitSeconds = 30;
    static constexpr std::size_t kLogHeadBytes = std::size_t{64} * 1024;
    std::string engine_;
    EnvList engineEnv_;
    std::string container_, dir_, imageName_;
    ImageFacts image_;
    ProcessGroup group_;
};

} // namespace

std::optional<std::string> containerInit(const std::string& engine) {
    if (engine == "docker")
        return std::string();
    std::error_code ec;
    if (fs::exists("/usr/libexec/podman/catatonit", ec))
        return std::string();
    for (const char* p : {"/usr/bin/catatonit", "/usr/libexec/catatonit/catatonit", "/usr/bin/tini-static",
                          "/usr/sbin/tini-static", "/usr/bin/docker-init", "/usr/libexec/docker/docker-init"})
        if (fs::exists(p, ec))
            return std::string(p);
    return std::nullopt;
}

std::vector<std::string> splitWords(const std::string& flags) {
    std::vector<std::string> out;
    std::istringstream in(flags);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::vector<std::string> ContainerBackend::runArgv(const JobSpec& job) const {
    requireOneNode(job, name());
    if (job.image.empty())
        throw InputError(job.planPath,
                         "configuration '" + job.config + "': no image for the container backends");
    checkPrivilege(job, s_);
    std::vector<std::string> a = {s_.engine, "run", "--rm", "--name", job.jobName};
    if (s_.init) {
        a.emplace_back("--init");
        if (!s_.initPath.empty())
            a.insert(a.end(), {"--init-path", s_.initPath});
    }
    const std::pair<const char*, std::string> labels[] = {
        {"cnp.plan=", s_.planName}, {"cnp.config=", job.config}, {"cnp.repeat=", std::to_string(job.repeat)}};
    for (const auto& [k, v] : labels)
        a.insert(a.end(), {"--label", k + v});
    a.insert(a.end(), s_.gpuFlags.begin(), s_.gpuFlags.end());
    if (job.ipcHost)
        a.emplace_back("--ipc=host");
    checkMountPath(job, job.outputDir);
    a.insert(a.end(), {"-v", volume(job.outputDir, kContainerOutputDir, false)});
    if (job.traced) {
        checkMountPath(job, s_.collectorLibrary);
        a.insert(a.end(), {"-v", volume(s_.collectorLibrary, kContainerCollectorPath, true)});
    }
    for (const auto& m : job.mounts) {
        checkMountPath(job, m.hostPath);
        checkMountPath(job, m.containerPath);
        if (m.containerPath.front() != '/')
            throw InputError(job.planPath, "configuration '" + job.config + "': container path '" +
                                               m.containerPath + "' is not absolute");
        a.insert(a.end(), {"-v", volume(m.hostPath, m.containerPath, m.readOnly)});
    }
    for (const auto& [k, v] :
         workloadEnvironment(job, kContainerCollectorPath, kContainerOutputDir, "localhost"))
        a.insert(a.end(), {"-e", k + "=" + v});
    if (!job.workingDir.empty())
        a.insert(a.end(), {"--workdir", job.workingDir});
    a.insert(a.end(), s_.extraArgs.begin(), s_.extraArgs.end());
    a.push_back(job.image);
    const auto node = nodeArgv(job, "localhost");
    a.insert(a.end(), node.begin(), node.end());
    return a;
}

std::string ContainerBackend::describe(const JobSpec& job) const {
    return jsonArgv(runArgv(job)) + "\n";
}

void ContainerBackend::prepare(const std::vector<JobSpec>& jobs,
                               const std::function<void(const std::string&)>& note) {
    // Every image (all must run), and those of traced jobs with only their traced configurations (those
    // must be traceable: ImageTraceCheck); each image once, its configurations in plan order.
    std::vector<ImageUse> uses, tracedUses;
    auto add = [](std::vector<ImageUse>& list, const JobSpec& j) {
        auto it =
            std::find_if(list.begin(), list.end(), [&](const ImageUse& u) { return u.image == j.image; });
        if (it == list.end())
            it = list.insert(list.end(), ImageUse{j.image, {}});
        if (std::find(it->configs.begin(), it->configs.end(), j.config) == it->configs.end())
            it->configs.push_back(j.config);
    };
    for (const auto& j : jobs) {
        add(uses, j);
        if (j.traced)
            add(tracedUses, j);
    }
    if (jobs.empty())
        return;
    images_ = prepareImages(s_.engine, s_.engineEnv, uses, s_.pull, jobs.front().planPath, note);
    checkImagesTraceable(s_.engine, s_.engineEnv, tracedUses, jobs.front().planPath, note);
}

std::unique_ptr<RunningJob> ContainerBackend::start(const JobSpec& job, const ProgressListener&) {
    auto argv = runArgv(job);
    auto image = images_.find(job.image);
    if (image == images_.end()) // not prepared (a caller that skips prepare): what the engine says now
        image = images_.emplace(job.image, inspectImage(s_.engine, s_.engineEnv, job.image)).first;
    return std::make_unique<ContainerJob>(argv, s_, job, image->second);
}

} // namespace cnp::launch
