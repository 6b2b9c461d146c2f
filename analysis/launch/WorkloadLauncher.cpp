#include "launch/WorkloadLauncher.h"

#include <filesystem>

namespace cnp::launch {

namespace {

std::string baseName(const std::string& program) {
    return std::filesystem::path(program).filename().string();
}

// The module a `python… [options] -m MODULE` command runs ("" when it runs a script or nothing). The
// interpreter's options before -m are single words (-u, -O, -X opt is two: the value is skipped).
std::string pythonModule(const std::vector<std::string>& command) {
    for (std::size_t i = 1; i < command.size(); ++i) {
        const std::string& w = command[i];
        if (w == "-m")
            return i + 1 < command.size() ? command[i + 1] : std::string();
        if (w.rfind("-m", 0) == 0 && w.size() > 2 && w[2] != '-')
            return w.substr(2); // -mtorch.distributed.run
        if (w.empty() || w.front() != '-' || w == "-c" || w == "-")
            return {}; // a script, code or stdin: not a module
        if (w == "-X" || w == "-W")
            ++i; // option with a separate value
    }
    return {};
}

} // namespace

WorkloadLauncher workloadLauncher(const std::vector<std::string>& command) {
    if (command.empty())
        return WorkloadLauncher::None;
    const std::string program = baseName(command.front());
    if (program == "torchrun")
        return WorkloadLauncher::Torchrun;
    if (program == "deepspeed")
        return WorkloadLauncher::DeepSpeed;
    if (program == "accelerate")
        return command.size() > 1 && command[1] == "launch" ? WorkloadLauncher::Accelerate
                                                            : WorkloadLauncher::None;
    if (program.rfind("python", 0) == 0) {
        const std::string module = pythonModule(command);
        if (module == "torch.distributed.run" || module == "torch.distributed.launch")
            return WorkloadLauncher::Torchrun;
        if (module == "deepspeed.launcher.runner")
            return WorkloadLauncher::DeepSpeed;
        if (module == "accelerate.commands.launch")
            return WorkloadLauncher::Accelerate;
    }
    return WorkloadLauncher::None;
}

const char* launcherName(WorkloadLauncher launcher) {
    switch (launcher) {
    case WorkloadLauncher::Torchrun:
        return "torchrun";
    case WorkloadLauncher::DeepSpeed:
        return "deepspeed";
    case WorkloadLauncher::Accelerate:
        return "accelerate";
    case WorkloadLauncher::None:
        break;
    }
    return "";
}

EnvList launcherEnvironment(WorkloadLauncher launcher, int nodes, int gpusPerNode,
                            const std::string& masterAddr, int masterPort) {
    EnvList env;
    if (launcher != WorkloadLauncher::Torchrun || masterAddr.empty())
        return env;
    env.emplace_back("PET_NNODES", std::to_string(nodes));
    env.emplace_back("PET_NPROC_PER_NODE", std::to_string(gpusPerNode > 0 ? gpusPerNode : 1));
    if (nodes > 1) {
        env.emplace_back("PET_MASTER_ADDR", masterAddr);
        env.emplace_back("PET_MASTER_PORT", std::to_string(masterPort));
    }
    return env;
}

} // namespace cnp::launch
