// cnp whatif WS --run NAME [window options] [--scale CAT=F,...] [--scale-kernel NAME=F,...]
//   [--no-launch-overhead] [--comm F] [--drop-recompute] [--remove-sync API,...|all] [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "WindowOptions.h"

#include "core/CommaList.h"
#include "core/Units.h"
#include "requests/CriticalPathRequest.h"
#include "store/Workspace.h"

#include <charconv>
#include <cmath>
#include <iostream>

namespace cnp::cli {
namespace {

constexpr double kMaxFactor = 1000;

double factorOf(const std::string& text, const std::string& option) {
    double f = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, f);
    if (ec != std::errc() || ptr != end || !std::isfinite(f) || f < 0 || f > kMaxFactor)
        throw UsageFailure{option + ": '" + text + "' is not a factor from 0 to 1000"};
    return f;
}

// NAME=F,NAME=F
std::vector<std::pair<std::string, double>> factorsOf(const ArgParser& p, const std::string& option) {
    std::vector<std::pair<std::string, double>> out;
    const auto v = p.value(option);
    if (!v)
        return out;
    for (const auto& item : splitCommaList(*v)) {
        const auto eq = item.rfind('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageFailure{option + ": '" + item + "' is not NAME=FACTOR"};
        out.emplace_back(item.substr(0, eq), factorOf(item.substr(eq + 1), option));
    }
    return out;
}

WhatIfScenario scenarioOf(const ArgParser& p) {
    WhatIfScenario s;
    s.categoryFactors = factorsOf(p, "--scale");
    s.kernelFactors = factorsOf(p, "--scale-kernel");
    s.removeLaunchOverhead = p.has("--no-launch-overhead");
    if (auto c = p.value("--comm"))
        s.exposedCommunicationFactor = factorOf(*c, "--comm");
    s.dropRecomputation = p.has("--drop-recompute");
    if (auto r = p.value("--remove-sync"))
        s.removedSyncs = splitCommaList(*r);
    if (s.empty())
        throw UsageFailure{"no transformation: give --scale, --scale-kernel, --no-launch-overhead, --comm, "
                           "--drop-recompute or --remove-sync"};
    return s;
}

void writeJson(const WhatIfReport& r) {
    JsonOutput j;
    j.beginObject().key("run").str(r.run).key("scenario").str(r.scenario);
    j.key("measured_ns").num(r.medianMeasured).key("predicted_ns").num(r.medianPredicted);
    j.key("ratio").real(r.ratio).key("ratio_low").real(r.ratioLow).key("ratio_high").real(r.ratioHigh);
    j.key("predicted_low_ns").num(r.predictedLow).key("predicted_high_ns").num(r.predictedHigh);
    j.key("windows").beginArray();
    for (const auto& w : r.windows) {
        j.beginObject().key("step").num(w.stepIndex).key("window").str(w.window);
        j.key("measured_ns").num(w.measured).key("predicted_ns").num(w.predicted);
        j.key("slowest_rank").num(w.slowestRank).key("predicted_slowest_rank").num(w.predictedSlowestRank);
        j.endObject();
    }
    j.endArray().key("notes").beginArray();
    for (const auto& n : r.notes)
        j.str(n);
    j.endArray().endObject();
    std::cout << j.text();
}

void writeText(const WhatIfReport& r) {
    std::cout << "what-if for run " << r.run << ": " << r.scenario << "\n";
    std::cout << "  measured critical path (median of " << r.windows.size() << " window"
              << (r.windows.size() == 1 ? "" : "s") << "): " << units::durationExact(r.medianMeasured)
              << "\n";
    std::cout << "  predicted: " << units::durationExact(r.medianPredicted) << " (" << units::ratio(r.ratio)
              << " of measured; range " << units::duration(static_cast<double>(r.predictedLow)) << " to "
              << units::duration(static_cast<double>(r.predictedHigh)) << ")\n";
    if (r.windows.size() > 1 && r.windows.size() <= 32)
        for (const auto& w : r.windows)
            std::cout << "    " << w.window << ": " << units::duration(static_cast<double>(w.measured))
                      << " -> " << units::duration(static_cast<double>(w.predicted)) << "\n";
    for (const auto& n : r.notes)
        std::cout << "note: " << n << "\n";
}

int runWhatIf(const std::vector<std::string>& args) {
    auto values = windowValueOptions();
    values.insert({"--scale", "--scale-kernel", "--comm", "--remove-sync"});
    ArgParser p(values, {"--json", "--hta-weights", "--no-launch-overhead", "--drop-recompute"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--run NAME is required"};
    const WindowChoice choice = windowChoiceOf(p);
    const WhatIfScenario scenario = scenarioOf(p);
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto report = computeWhatIf(ws, *runName, choice, scenario);
    if (p.has("--json"))
        writeJson(report);
    else
        writeText(report);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "whatif", "predict a step's time under transformations, re-timed on its dependency graph",
    "usage: cnp whatif WS --run NAME [--step N | --annotation TEXT [--instance I]] [--rank R]\n"
    "       [--scale CAT=F,...] [--scale-kernel NAME=F,...] [--no-launch-overhead] [--comm F]\n"
    "       [--drop-recompute] [--remove-sync API,...|all] [--json]\n\n"
    "Re-weights each window's dependency graph (cnp critical-path) and takes its longest path again:\n"
    "the predicted step time, with the lowest and highest per-step ratio as its range.\n"
    "Definitions: docs/metrics.md, \"What-if\".\n\n"
    "  --scale CAT=F          GPU activities of category CAT (gemm, attention, communication, memory...) x "
    "F\n"
    "  --scale-kernel NAME=F  kernels whose name contains NAME x F\n"
    "  --no-launch-overhead   launch calls and launch delays take no time (as CUDA graphs)\n"
    "  --comm F               communication kernels x F (only exposed communication moves the path)\n"
    "  --drop-recompute       kernels of category recompute, and their launches, removed\n"
    "  --remove-sync API      blocking calls whose name contains API (or all) no longer wait\n"
    "  --step, --annotation, --instance, --rank   the windows, as for critical-path (default: every step)\n"
    "  --hta-weights          CPU time outside every operator and API call weighs 0, as in HTA\n"
    "  --json                 machine-readable output (docs/cli.md)\n",
    runWhatIf);

} // namespace cnp::cli
