#include "launch/EngineFailure.h"

#include <optional>
#include <sstream>
#include <vector>

namespace cnp::launch {

namespace {

constexpr std::size_t kMaxQuote = 300;

bool has(const std::string& s, const char* what) {
    return s.find(what) != std::string::npos;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '.' || s.back() == '\r'))
        s.pop_back();
    while (!s.empty() && s.front() == ' ')
        s.erase(s.begin());
    return s.size() > kMaxQuote ? s.substr(0, kMaxQuote) + "…" : s;
}

// The text after `marker` on its line, trimmed; nullopt when no line holds it.
std::optional<std::string> after(const std::string& output, const char* marker) {
    const auto at = output.find(marker);
    if (at == std::string::npos)
        return std::nullopt;
    const auto from = at + std::string(marker).size();
    const auto end = output.find('\n', from);
    return trimmed(output.substr(from, end == std::string::npos ? std::string::npos : end - from));
}

// The engine's last error line without its prefix (podman "Error: ", docker "docker: Error response from
// daemon: "): the one that ended the command, after any retries' warnings.
std::string lastErrorLine(const std::string& output) {
    std::istringstream in(output);
    std::string last;
    for (std::string line; std::getline(in, line);)
        for (const char* prefix :
             {"docker: Error response from daemon: ", "Error response from daemon: ", "docker: ", "Error: "})
            if (line.rfind(prefix, 0) == 0) {
                last = trimmed(line.substr(std::string(prefix).size()));
                break;
            }
    return last;
}

std::optional<EngineFailure> unknownFlag(const std::string& engine, const std::string& out) {
    auto flag = after(out, "unknown flag: ");
    if (!flag)
        flag = after(out, "unknown shorthand flag: ");
    if (!flag)
        return std::nullopt;
    return EngineFailure{engine + " does not know the flag " + *flag +
                             " (it came from container.extraArgs or the GPU flags: container.gpuFlags, "
                             "--gpu-flags)",
                         true};
}

std::optional<EngineFailure> noGpuRuntime(const std::string& engine, const std::string& out) {
    const std::string cdiFix = "generate the CDI specification (nvidia-ctk cdi generate "
                               "--output=/etc/cdi/nvidia.yaml), or use --gpus all";
    if (auto devices = after(out, "unresolvable CDI devices "))
        return EngineFailure{
            "no GPU runtime: the CDI device " + *devices + " is not defined on this host; " + cdiFix, true};
    if (auto device = after(out, "error gathering device information while adding custom device "))
        return EngineFailure{
            "no GPU runtime: " + engine + " cannot add the device " + *device + "; " + cdiFix, true};
    if (has(out, "could not select device driver"))
        return EngineFailure{"no GPU runtime: " + engine +
                                 " has no driver for --gpus (install the NVIDIA Container Toolkit and "
                                 "configure it: nvidia-ctk runtime configure --runtime=" +
                                 engine + ")",
                             true};
    if (has(out, "nvidia-container-cli") || has(out, "nvidia-container-runtime"))
        return EngineFailure{"no GPU runtime: the NVIDIA container runtime failed: " + lastErrorLine(out),
                             true};
    return std::nullopt;
}

std::optional<EngineFailure> imageProblem(const std::string& engine, const std::string& out,
                                          const std::string& image) {
    const std::string img = "image " + image;
    if (has(out, "pull access denied") || has(out, "requested access to the resource is denied") ||
        has(out, "unauthorized") || has(out, "authentication required"))
        return EngineFailure{"pull denied for " + img + ": the registry refused it (log in with " + engine +
                                 " login REGISTRY, or the name is wrong): " + lastErrorLine(out),
                             false};
    if (has(out, "manifest unknown") || has(out, "name unknown") ||
        (has(out, "manifest for ") && has(out, " not found")))
        return EngineFailure{img + " not found in its registry (no such name or tag): " + lastErrorLine(out),
                             false};
    if (has(out, "short-name") && has(out, "did not resolve"))
        return EngineFailure{img +
                                 " is not on this host and names no registry to pull it from (write it in "
                                 "full, e.g. docker.io/library/NAME:TAG, or load it: " +
                                 engine + " load)",
                             false};
    if (has(out, "pinging container registry") || has(out, "dial tcp") || has(out, "no such host") ||
        has(out, "i/o timeout") || has(out, "TLS handshake timeout"))
        return EngineFailure{
            img + " is not on this host and its registry cannot be reached: " + lastErrorLine(out), false};
    if (has(out, "image not known") || has(out, "Unable to find image") || has(out, "No such image"))
        return EngineFailure{img + " is not on this host: " + lastErrorLine(out), false};
    return std::nullopt;
}

// The line of the engine or of the init it runs as PID 1 (`--init`: tini, docker-init, catatonit) that
// says the program could not be executed; "" when there is none (the workload's own 126 or 127).
std::string execLine(const std::string& out) {
    if (std::string line = lastErrorLine(out); !line.empty())
        return line;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if ((line.rfind("[FATAL tini", 0) == 0 || line.rfind("catatonit", 0) == 0) && has(line, "exec"))
            return trimmed(line);
    return {};
}

std::optional<EngineFailure> programProblem(int exitCode, const std::string& out, const std::string& image) {
    const std::string line = execLine(out);
    if (line.empty())
        return std::nullopt;
    if (exitCode == 127 && (has(line, "executable file not found") || has(line, "o such file or directory")))
        return EngineFailure{"the workload's program is not in image " + image + ": " + line, false};
    if (exitCode == 126 && has(line, "ermission denied"))
        return EngineFailure{"the workload's program cannot be executed in image " + image + ": " + line,
                             false};
    return std::nullopt;
}

} // namespace

EngineFailure diagnoseEngineFailure(const std::string& engine, int exitCode, const std::string& output,
                                    const std::string& image) {
    if (exitCode < 125 || exitCode > 127)
        return {}; // the workload's own exit code
    for (const auto& found : {unknownFlag(engine, output), noGpuRuntime(engine, output),
                              imageProblem(engine, output, image), programProblem(exitCode, output, image)})
        if (found)
            return *found;
    if (exitCode == 125)
        if (std::string line = lastErrorLine(output); !line.empty())
            return {engine + ": " + line, false};
    return {};
}

} // namespace cnp::launch
