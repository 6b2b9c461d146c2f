// Fuzz target: a mutated workspace file opened read-only and read by every read command of `cnp`
// (runs, stats, insights, diff, ablation, reclassify --show, report, export), dispatched through the
// CLI's command registry exactly as main() does, plus the timeline loader the workbench uses.
// Refusals the CLI turns into exit 2 (InputError, Cancelled, UsageFailure and other std::exception
// messages, e.g. SqliteError from a corrupt page) are fine; crashes, hangs and sanitizer reports are
// findings.
#include "CommandRegistry.h"
#include "FuzzSupport.h"
#include "store/Workspace.h"
#include "timeline/TimelineLoader.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Args = std::vector<std::string>;

// Runs one registered command with its output discarded; exceptions end it as main() would.
void runCommand(const Args& args) {
    const auto& reg = cnp::cli::commandRegistry();
    const auto it =
        std::find_if(reg.begin(), reg.end(), [&](const cnp::cli::Command& c) { return c.name == args[0]; });
    if (it == reg.end())
        return;
    try {
        it->run(Args(args.begin() + 1, args.end()));
    } catch (const cnp::cli::UsageFailure&) {
    } catch (const std::exception&) {
    }
}

// The names of the workspace's first two runs, and their ids; empty when it cannot be opened.
std::vector<std::pair<std::string, cnp::RunId>> firstRuns(const std::string& path) {
    std::vector<std::pair<std::string, cnp::RunId>> out;
    try { // as the CLI and the workbench do, any std::exception is a refusal with a message
        cnp::Workspace ws(path, cnp::Workspace::Mode::ReadOnly);
        for (const auto& r : ws.runs()) {
            out.emplace_back(r.info.name, r.id);
            if (out.size() == 2)
                break;
        }
        if (!out.empty())
            cnp::timeline::loadTimeline(ws, out.front().second);
    } catch (const std::exception&) {
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& dir = cnp::fuzz::scratchDir();
    for (const char* suffix : {"-wal", "-shm"})
        std::filesystem::remove(dir + "/ws.cnpdb" + suffix);
    const std::string& ws = cnp::fuzz::writeScratch("ws.cnpdb", data, size);
    std::ostringstream sink;
    std::streambuf* out = std::cout.rdbuf(sink.rdbuf());
    std::streambuf* err = std::cerr.rdbuf(sink.rdbuf());
    runCommand({"runs", ws, "--json"});
    runCommand({"ablation", ws, "--json", "--resamples", "20"});
    runCommand({"reclassify", ws, "--show"});
    runCommand({"report", ws, "--out", dir + "/report.html"});
    const auto runs = firstRuns(ws);
    for (const auto& [name, id] : runs) {
        runCommand({"stats", ws, "--run", name, "--json"});
        runCommand({"insights", ws, "--run", name, "--json"});
        runCommand({"export", ws, "--run", name, "--format", "csv", "--out", dir + "/export.csv", "--quiet"});
        runCommand({"export", ws, "--run", name, "--out", dir + "/export.json", "--quiet"});
    }
    if (runs.size() == 2)
        runCommand({"diff", ws, runs[0].first, runs[1].first, "--json"});
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    return 0;
}
