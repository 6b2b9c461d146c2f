#include "launch/LocalBackend.h"

#include "launch/JobPlanner.h"
#include "launch/Subprocess.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;

class LocalJob : public RunningJob {
public:
    LocalJob(const std::vector<std::string>& argv, const JobSpec& job)
        : dir_(job.outputDir),
          group_(argv, {}, (fs::path(job.outputDir) / "node0.log").string(), localWorkingDir(job)) {}

    std::optional<int> poll() override { return group_.poll(); }
    void cancel() override { group_.stop(5000); }
    std::string collect() override { return readLogs(dir_); }

private:
    std::string dir_;
    ProcessGroup group_;
};

} // namespace

std::string localWorkingDir(const JobSpec& job) {
    const fs::path wd(job.workingDir);
    if (wd.is_absolute() || job.planPath.empty())
        return job.workingDir;
    std::error_code ec;
    const fs::path planDir = fs::absolute(fs::path(job.planPath), ec).parent_path();
    if (ec || !fs::is_directory(planDir, ec)) // a plan built in code, not read from a file
        return job.workingDir;
    return (wd.empty() ? planDir : planDir / wd).lexically_normal().string();
}

std::string readLogs(const std::string& dir) {
    std::vector<fs::path> logs;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".log")
            logs.push_back(e.path());
    std::sort(logs.begin(), logs.end());
    std::string text;
    for (const auto& p : logs) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        text += s.str();
    }
    return text;
}

std::vector<std::string> LocalBackend::commandLine(const JobSpec& job) const {
    requireOneNode(job, name());
    std::vector<std::string> argv = {"env"};
    JobSpec local = job;
    local.image.clear(); // runs on this box, not in the configuration's image: no CNP_IMAGE label
    const EnvList env = workloadEnvironment(local, collector_, job.outputDir, "localhost");
    // The process inherits cnp's environment: an untraced repeat (the overhead baseline) must not be traced
    // by an injection the caller exported, and no run may record an image label (CNP_IMAGE) the caller
    // exported: it runs on this box. `env -u` drops those its own entries do not set.
    std::vector<const char*> unset = {"CNP_IMAGE"};
    if (!job.traced)
        unset.insert(unset.end(), {"CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH"});
    for (const char* name : unset)
        if (std::none_of(env.begin(), env.end(), [&](const auto& e) { return e.first == name; }))
            argv.insert(argv.end(), {"-u", name});
    for (const auto& [k, v] : env)
        argv.push_back(k + "=" + v);
    const auto node = nodeArgv(job, "localhost"); // planJobs: argv[0] has no '=' and no leading '-'
    argv.insert(argv.end(), node.begin(), node.end());
    return argv;
}

std::string LocalBackend::describe(const JobSpec& job) const {
    return jsonArgv(commandLine(job)) + "\n";
}

std::unique_ptr<RunningJob> LocalBackend::start(const JobSpec& job, const ProgressListener&) {
    return std::make_unique<LocalJob>(commandLine(job), job);
}

} // namespace cnp::launch
