#include "launch/CollectorEnvironment.h"

#include <cstdlib>
#include <filesystem>

namespace cnp::launch {

namespace fs = std::filesystem;

EnvList collectorEnvironment(const CollectorSettings& s) {
    EnvList env = {{"CUDA_INJECTION64_PATH", s.library},
                   {"NVTX_INJECTION64_PATH", s.library},
                   {"CNP_OUTPUT_DIR", s.outputDir}};
    const std::pair<const char*, const std::string*> labels[] = {
        {"CNP_CONFIG", &s.config}, {"CNP_RUN", &s.run}, {"CNP_CAPTURE", &s.capture}, {"CNP_IMAGE", &s.image}};
    for (const auto& [name, value] : labels)
        if (!value->empty())
            env.emplace_back(name, *value);
    return env;
}

void setEnv(EnvList& env, const std::string& name, const std::string& value) {
    for (auto& [k, v] : env)
        if (k == name) {
            v = value;
            return;
        }
    env.emplace_back(name, value);
}

EnvList mergeEnv(EnvList base, const EnvList& overrides) {
    for (const auto& [k, v] : overrides)
        setEnv(base, k, v);
    return base;
}

std::string findCollectorLibrary(std::vector<std::string>& looked) {
    if (const char* env = std::getenv("CNP_COLLECTOR_LIB"); env && *env) {
        looked.emplace_back(env);
        return fs::exists(env) ? fs::absolute(env).string() : std::string();
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    const fs::path dir = exe.parent_path();
    for (const fs::path& p : {dir / "../../lib/libcnp-collector.so", dir / "../lib/cnp/libcnp-collector.so",
                              dir / "../lib/libcnp-collector.so", dir / "libcnp-collector.so"}) {
        looked.push_back(p.lexically_normal().string());
        if (fs::exists(p, ec))
            return fs::canonical(p, ec).string();
    }
    return {};
}

} // namespace cnp::launch
