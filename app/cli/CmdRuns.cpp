// cnp runs WS [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "store/Workspace.h"

#include "core/RapidJson.h"

#include <iomanip>
#include <iostream>

namespace cnp::cli {
namespace {

void writeRunsJson(const Workspace& ws, const std::vector<RunRecord>& runs) {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    auto str = [&](const std::string& s) { w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size())); };
    auto strList = [&](const std::vector<std::string>& v) {
        w.StartArray();
        for (const auto& s : v)
            str(s);
        w.EndArray();
    };
    w.StartObject();
    w.Key("runs");
    w.StartArray();
    for (const auto& r : runs) {
        const auto& i = r.info;
        w.StartObject();
        w.Key("name"), str(i.name);
        w.Key("config"), str(i.config);
        w.Key("repeat"), w.Int(i.repeat);
        w.Key("source_format"), str(i.sourceFormat);
        w.Key("source_files"), strList(i.sourceFiles);
        w.Key("host"), str(i.host);
        w.Key("ranks"), w.Int(r.rankCount);
        w.Key("world_size"), w.Int(i.worldSize);
        w.Key("gpu_models"), strList(i.gpuModels);
        w.Key("driver_version"), str(i.driverVersion);
        w.Key("cuda_version"), str(i.cudaVersion);
        w.Key("cupti_version"), str(i.cuptiVersion);
        w.Key("container_image"), str(i.containerImage);
        w.Key("env");
        w.StartObject();
        for (const auto& [k, v] : i.env)
            w.Key(k.c_str()), str(v);
        w.EndObject();
        w.Key("synthetic"), w.Bool(i.synthetic);
        w.Key("kernels"), w.Int64(r.kernelCount);
        w.Key("skipped_events"), w.Int64(i.skipped.count);
        if (i.skipped.count > 0) {
            w.Key("first_skipped_offset"), w.Int64(i.skipped.firstOffset);
            w.Key("first_skipped_reason"), str(i.skipped.firstReason);
        }
        w.Key("tokens_per_step"), w.Double(i.tokensPerStep);
        w.Key("created_at"), str(r.createdAt);
        w.Key("attributes"); // run_attributes (docs/schema.md): plan, launch, log and fetch provenance
        w.StartObject();
        for (const auto& [k, v] : ws.runAttributes(r.id))
            w.Key(k.c_str(), static_cast<rapidjson::SizeType>(k.size())), str(v);
        w.EndObject();
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    std::cout << buf.GetString() << '\n';
}

int runRuns(const std::vector<std::string>& args) {
    ArgParser p({}, {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto runs = ws.runs();
    if (p.has("--json")) {
        writeRunsJson(ws, runs);
        return Ok;
    }
    if (runs.empty()) {
        std::cout << "no runs (add some with: cnp ingest " << ws.path() << " TRACE...)\n";
        return Ok;
    }
    std::size_t wn = 4, wc = 6;
    for (const auto& r : runs) {
        wn = std::max(wn, r.info.name.size());
        wc = std::max(wc, r.info.config.size());
    }
    std::cout << std::left << std::setw(static_cast<int>(wn) + 2) << "RUN"
              << std::setw(static_cast<int>(wc) + 2) << "CONFIG" << std::setw(8) << "FORMAT" << std::right
              << std::setw(6) << "RANKS" << std::setw(10) << "KERNELS"
              << "  GPU\n";
    for (const auto& r : runs)
        std::cout << std::left << std::setw(static_cast<int>(wn) + 2) << r.info.name
                  << std::setw(static_cast<int>(wc) + 2) << r.info.config << std::setw(8)
                  << r.info.sourceFormat << std::right << std::setw(6) << r.rankCount << std::setw(10)
                  << r.kernelCount << "  " << (r.info.gpuModels.empty() ? "-" : r.info.gpuModels.front())
                  << (r.info.synthetic ? "  [synthetic]" : "") << '\n';
    return Ok;
}

CNP_COMMAND(
    "runs", "list the runs of a workspace with their metadata",
    "usage: cnp runs WORKSPACE [--json]\n\n"
    "Lists runs in plan order (configuration order, then repeat, then name).\n"
    "  --json   machine-readable: {\"runs\": [{\"name\", \"config\", \"repeat\", \"source_format\",\n"
    "           \"source_files\", \"ranks\", \"world_size\", \"gpu_models\", \"driver_version\", ...,\n"
    "           \"attributes\": {\"plan.hash\", \"launch.backend\", \"log.throughput\", ...}}]}\n",
    runRuns);

} // namespace
} // namespace cnp::cli
