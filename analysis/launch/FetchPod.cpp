#include "launch/FetchPod.h"

#include "core/InputError.h"
#include "core/RapidJson.h"
#include "launch/KubernetesManifests.h"
#include "launch/KubernetesObjects.h"
#include "launch/Subprocess.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace cnp::launch {

namespace {

using Clock = std::chrono::steady_clock;

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

std::string podPhase(const std::string& json) {
    rapidjson::Document d;
    if (d.Parse(json.c_str()).HasParseError() || !d.IsObject() || !d.HasMember("status"))
        return {};
    const char* phase = member(d["status"], "phase");
    return phase ? phase : "";
}

} // namespace

FetchPod::FetchPod(const plan::Plan& plan, const KubectlOptions& k, const JobSpec& job)
    : plan_(plan), k_(k), job_(job) {}

bool FetchPod::start(const std::string& what) const {
    const ProcessResult created =
        runProcess(kubectlArgv(k_, {"create", "--validate=false", "-f", "-", "-o", "name"}), {},
                   traceFetcherManifest(plan_, job_));
    if (created.exitCode != 0)
        throw InputError(job_.outputDir, what + ": the fetch pod was not created: " + firstLine(created.err));
    const auto until = Clock::now() + std::chrono::seconds(k_.fetchTimeoutSeconds);
    std::string phase;
    while (phase != "Running" && phase != "Succeeded" && phase != "Failed" && Clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(k_.pollMs));
        const ProcessResult r = runProcess(kubectlArgv(k_, {"get", "pod", name(), "-o", "json"}));
        phase = r.exitCode == 0 ? podPhase(r.out) : "";
    }
    return phase == "Running";
}

void FetchPod::remove() const {
    runProcess(kubectlArgv(k_, {"delete", "pod/" + name(), "--ignore-not-found", "--wait=false"}));
}

std::vector<std::string> FetchPod::execArgv(const std::vector<std::string>& command) const {
    std::vector<std::string> args = {"exec", name(), "-c", "fetch", "--"};
    args.insert(args.end(), command.begin(), command.end());
    return kubectlArgv(k_, args, 0);
}

ExecArgv FetchPod::exec() const {
    return [this](const std::vector<std::string>& command) { return execArgv(command); };
}

FetchOptions fetchOptionsFor(const KubectlOptions& k, const JobSpec& job) {
    FetchOptions o;
    o.stallMs = k.stallSeconds * 1000;
    o.triesPerFile = k.fetchTries;
    o.expectedRanks = job.nodes * std::max(1, job.gpusPerNode);
    return o;
}

PrintFile catThrough(ExecArgv exec) {
    return [exec = std::move(exec)](const std::string& path) { return exec({"cat", path}); };
}

std::vector<std::pair<std::string, std::string>> fetchFigures(const FetchOutcome& got) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", got.seconds);
    return {{"fetch.transport", "kubectl-exec"},
            {"fetch.files", std::to_string(got.fetched + got.skipped)},
            {"fetch.bytes", std::to_string(got.bytes + got.skippedBytes)},
            {"fetch.transferred_bytes", std::to_string(got.bytes)},
            {"fetch.seconds", seconds}};
}

std::vector<RemoteFile> listRemoteFolder(const ExecArgv& exec, const std::string& dir, int tries,
                                         const std::string& file, const std::string& what) {
    ProcessResult listed;
    for (int i = 0; i < tries && (i == 0 || listed.exitCode != 0); ++i)
        if (listed = runProcess(exec(listingCommand(dir))); listed.exitCode == kListingNoFolder)
            return {};
    if (listed.exitCode != 0)
        throw InputError(file, what + " not listed (kubectl exec, exit code " +
                                   std::to_string(listed.exitCode) + "): " + firstLine(listed.err));
    return parseListing(listed.out);
}

std::map<std::string, std::string> checksumRemoteFolder(const ExecArgv& exec, const std::string& dir,
                                                        const std::vector<std::string>& globs, int tries,
                                                        const std::string& file, const std::string& what) {
    ProcessResult r;
    for (int i = 0; i < tries && (i == 0 || r.exitCode != 0); ++i)
        r = runProcess(exec(checksumCommand(dir, globs)));
    if (r.exitCode != 0)
        throw InputError(file, what + " not checksummed on the volume (kubectl exec sha256sum, exit code " +
                                   std::to_string(r.exitCode) + "): " + firstLine(r.err));
    return parseChecksums(r.out);
}

} // namespace cnp::launch
