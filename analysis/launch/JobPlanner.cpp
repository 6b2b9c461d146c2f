#include "launch/JobPlanner.h"

#include "CaptureSpec.h"
#include "core/InputError.h"
#include "launch/WorkloadLauncher.h"
#include "plan/PlanLint.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace cnp::launch {

namespace {

// FNV-1a, 24 bits as 6 hex digits: tells apart jobs whose configuration names fold to the same label.
std::string shortHash(const std::string& text) {
    std::uint32_t h = 2166136261u;
    for (unsigned char c : text)
        h = (h ^ c) * 16777619u;
    char buf[8];
    std::snprintf(buf, sizeof buf, "%06x", h & 0xffffffu);
    return buf;
}

std::vector<const plan::Configuration*> selectConfigurations(const plan::Plan& plan,
                                                             const std::vector<std::string>& names) {
    std::vector<const plan::Configuration*> out;
    if (names.empty()) {
        for (const auto& c : plan.configurations)
            out.push_back(&c);
        return out;
    }
    for (const auto& n : names) {
        const plan::Configuration* c = plan.find(n);
        if (!c)
            throw InputError(plan.path, "no configuration named '" + n + "'");
        out.push_back(c);
    }
    return out;
}

// What every backend relies on: a program to run that no launcher reads as an option or an assignment
// (`env NAME=VALUE... PROGRAM`), and environment names that are names.
void checkRunnable(const plan::Plan& plan, const plan::Configuration& c) {
    const auto& cmd = plan.workload.command;
    if (cmd.empty() || cmd.front().empty())
        throw InputError(plan.path, "the workload has no command");
    if (cmd.front().front() == '-' || cmd.front().find('=') != std::string::npos)
        throw InputError(plan.path,
                         "the workload's program '" + cmd.front() + "' starts with '-' or holds '='");
    for (const auto& e : c.resolved.env)
        if (e.name.empty() || e.name.find_first_of("=\0", 0, 2) != std::string::npos)
            throw InputError(plan.path, "configuration '" + c.name + "': environment name '" + e.name +
                                            "' is empty or holds '=' or NUL");
}

JobSpec baseJob(const plan::Plan& plan, const plan::Configuration& c) {
    checkRunnable(plan, c);
    // A value the collector refuses would have it record everything: never run a job on a guess.
    if (const std::string why = plan::captureProblem(plan.capture); !why.empty())
        throw InputError(plan.path, why);
    const plan::ConfigValues& v = c.resolved;
    JobSpec j;
    j.planPath = plan.path;
    j.config = c.name;
    j.command = plan.workload.command;
    j.command.insert(j.command.end(), v.args.begin(), v.args.end());
    for (const auto& e : v.env)
        setEnv(j.env, e.name, e.value);
    j.mounts = v.mounts;
    j.nodeSelector = v.nodeSelector;
    if (v.nodePool)
        j.nodeSelector[plan.kubernetes.nodePoolLabel] = *v.nodePool;
    j.image = v.image.value_or("");
    j.workingDir = plan.workload.workingDir;
    j.ipcHost = v.ipcHost.value_or(true);
    j.nodes = plan.resources.nodes;
    j.gpusPerNode = plan.resources.gpusPerNode;
    j.timeoutSeconds = plan.timeoutSeconds;
    j.capture = plan.capture.empty() ? "" : collector::CaptureSpec::parse(plan.capture).describe();
    return j;
}

bool isPython(const std::string& program) {
    const std::string base = std::filesystem::path(program).filename().string();
    return base.rfind("python", 0) == 0;
}

} // namespace

std::string dnsLabel(const std::string& text, std::size_t max) {
    std::string out;
    for (char ch : text) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) && c < 0x80)
            out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-')
            out += '-';
        if (out.size() >= max)
            break;
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "x" : out;
}

std::vector<JobSpec> planJobs(const plan::Plan& plan, const JobSelection& sel,
                              const std::string& outputRoot) {
    const int traced = sel.tracedRepeats >= 0 ? sel.tracedRepeats : plan.repeats.traced;
    if (traced < 0 || plan.repeats.untraced < 0)
        throw InputError(plan.path, "repeat counts must not be negative");
    std::vector<JobSpec> jobs;
    for (const plan::Configuration* c : selectConfigurations(plan, sel.configs)) {
        const JobSpec base = baseJob(plan, *c);
        // "cnp-" + label + "-" + 6 hex + "-r" + repeat digits stays within kMaxJobNameLength. The hash covers
        // the plan file's hash too: another plan's "Base" on the same host or namespace gets another name.
        const std::string stem = "cnp-" + dnsLabel(c->name, 30) + "-" + shortHash(plan.hash + "/" + c->name);
        for (int r = 1; r <= traced + plan.repeats.untraced; ++r) {
            JobSpec j = base;
            j.repeat = r;
            j.traced = r <= traced;
            j.runName = c->name + "-r" + std::to_string(r);
            j.jobName = stem + "-r" + std::to_string(r);
            j.outputDir = (std::filesystem::path(outputRoot) / j.jobName).string();
            jobs.push_back(std::move(j));
        }
    }
    return jobs;
}

std::vector<std::string> nodeArgv(const JobSpec& job, const std::string& masterAddr) {
    if (job.gpusPerNode <= 1 || job.command.empty() ||
        workloadLauncher(job.command) != WorkloadLauncher::None)
        return job.command; // one process, or a launcher that starts one per GPU itself
    std::vector<std::string> argv = {"torchrun"};
    if (job.nodes <= 1) {
        argv.insert(argv.end(),
                    {"--nnodes=1", "--nproc-per-node=" + std::to_string(job.gpusPerNode), "--standalone"});
    } else if (!masterAddr.empty()) {
        argv.insert(argv.end(),
                    {"--nnodes=" + std::to_string(job.nodes),
                     "--nproc-per-node=" + std::to_string(job.gpusPerNode), "--master-addr=" + masterAddr,
                     "--master-port=" + std::to_string(kMasterPort)});
    }
    // torchrun runs `python SCRIPT ...` and `python -m MODULE ...` itself; anything else needs --no-python.
    const bool pythonScript = isPython(job.command.front()) && job.command.size() > 1 &&
                              (job.command[1] == "-m" || job.command[1].front() != '-');
    if (pythonScript) {
        argv.insert(argv.end(), job.command.begin() + 1, job.command.end());
    } else {
        argv.emplace_back("--no-python");
        argv.insert(argv.end(), job.command.begin(), job.command.end());
    }
    return argv;
}

EnvList workloadEnvironment(const JobSpec& job, const std::string& collectorPath,
                            const std::string& outputDir, const std::string& masterAddr) {
    EnvList env = mergeEnv(launcherEnvironment(workloadLauncher(job.command), job.nodes, job.gpusPerNode,
                                               masterAddr, kMasterPort),
                           job.env);
    if (!job.traced)
        return env;
    CollectorSettings s;
    s.library = collectorPath;
    s.outputDir = outputDir;
    s.config = job.config;
    s.run = job.runName;
    s.capture = job.capture;
    s.image = job.image;
    return mergeEnv(std::move(env), collectorEnvironment(s));
}

} // namespace cnp::launch
