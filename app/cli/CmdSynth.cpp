// cnp synth --out DIR [--study NAME] [--nodes N] [--gpus-per-node G] [--steps S] [--repeats R] [--seed K]
//           [--configs A,B,...] [--layers L] [--kernels-per-step K] [--ingest WS]
//           [--regression R] [--regression-configs A,B,...]
//           [--plant-slow-loader RANK[:MS]] [--plant-slow-gpu RANK[:F]] [--plant-slow-link RANK[:F]]
//           [--plant-clock-error NODE:US[:PPM],...]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "ProgressBar.h"

#include "core/CommaList.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <tuple>
#include <utility>

namespace cnp::cli {
namespace {

int intOption(const ArgParser& p, const std::string& name) {
    const double v = p.number(name).value_or(0);
    if (v < 0 || v != static_cast<double>(static_cast<long long>(v)) || v > 1e9)
        throw UsageFailure{name + " must be a non-negative integer"};
    return static_cast<int>(v);
}

// "5%" or "0.05" -> 0.05; UsageFailure unless a finite number in [0, 1].
double fractionOption(const std::string& name, std::string text) {
    const bool pct = !text.empty() && text.back() == '%';
    if (pct)
        text.pop_back();
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    const double f = pct ? v / 100 : v;
    if (text.empty() || end != text.c_str() + text.size() || !(f >= 0 && f <= 1))
        throw UsageFailure{name + " must be a fraction in [0, 1] or a percentage, e.g. 5% or 0.05"};
    return f;
}

// A finite number in [lo, hi] from the whole of `text`; UsageFailure naming the option otherwise.
double numberIn(const std::string& option, const std::string& text, double lo, double hi) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(v >= lo && v <= hi)) {
        char range[96];
        std::snprintf(range, sizeof range, "%g to %g", lo, hi);
        throw UsageFailure{option + ": '" + text + "' is not a number from " + range};
    }
    return v;
}

// "RANK" or "RANK:VALUE" of a --plant-* option: the rank and the value (`fallback` when not given).
std::pair<int, double> rankAndValue(const std::string& option, const std::string& text, double fallback,
                                    double lo, double hi) {
    const auto colon = text.find(':');
    const int rank = static_cast<int>(numberIn(option, text.substr(0, colon), 0, 1e7));
    if (static_cast<double>(rank) != numberIn(option, text.substr(0, colon), 0, 1e7))
        throw UsageFailure{option + ": the rank must be a whole number"};
    const double value =
        colon == std::string::npos ? fallback : numberIn(option, text.substr(colon + 1), lo, hi);
    return {rank, value};
}

// The --plant-* options (docs/synth.md, "Planted problems"); the generator checks ranks and nodes against
// the run's shape.
// One NODE:US[:PPM] of --plant-clock-error into `k`: node NODE's clock reads US µs late at the run's
// start and runs PPM parts per million fast from there.
void plantClockError(const std::string& item, synth::SynthPlants& k) {
    const auto colon = item.find(':');
    if (colon == std::string::npos)
        throw UsageFailure{"--plant-clock-error: '" + item + "' is not NODE:MICROSECONDS[:PPM]"};
    const double node = numberIn("--plant-clock-error", item.substr(0, colon), 0, 1e6);
    if (node != static_cast<double>(static_cast<int>(node)))
        throw UsageFailure{"--plant-clock-error: the node must be a whole number"};
    const auto second = item.find(':', colon + 1);
    const std::string usText =
        second == std::string::npos ? item.substr(colon + 1) : item.substr(colon + 1, second - colon - 1);
    const double us = numberIn("--plant-clock-error", usText, -3.6e9, 3.6e9);
    const auto n = static_cast<std::size_t>(node);
    if (k.nodeClockErrorNs.size() <= n)
        k.nodeClockErrorNs.resize(n + 1, 0);
    k.nodeClockErrorNs[n] = static_cast<Ns>(us * 1e3);
    if (second == std::string::npos)
        return;
    const double ppm = numberIn("--plant-clock-error", item.substr(second + 1), -1000, 1000);
    if (k.nodeClockDriftPpm.size() <= n)
        k.nodeClockDriftPpm.resize(n + 1, 0);
    k.nodeClockDriftPpm[n] = ppm;
}

synth::SynthPlants plantsOf(const ArgParser& p) {
    synth::SynthPlants k;
    if (auto v = p.value("--plant-slow-loader")) {
        const auto [rank, ms] = rankAndValue("--plant-slow-loader", *v, 20, 0, 3.6e6);
        k.slowLoaderRank = rank;
        k.slowLoaderExtraNs = static_cast<Ns>(ms * 1e6);
    }
    if (auto v = p.value("--plant-slow-gpu"))
        std::tie(k.slowGpuRank, k.slowGpuFactor) = rankAndValue("--plant-slow-gpu", *v, 1.08, 1, 100);
    if (auto v = p.value("--plant-slow-link"))
        std::tie(k.slowLinkRank, k.slowLinkFactor) = rankAndValue("--plant-slow-link", *v, 1.5, 1, 100);
    if (auto v = p.value("--plant-clock-error"))
        for (const auto& item : splitCommaList(*v))
            plantClockError(item, k);
    return k;
}

synth::StudyOptions studyOptions(const ArgParser& p) {
    synth::StudyOptions o;
    o.outDir = *p.value("--out");
    o.nodes = intOption(p, "--nodes");
    o.gpusPerNode = intOption(p, "--gpus-per-node");
    o.steps = intOption(p, "--steps");
    o.repeats = intOption(p, "--repeats");
    o.layers = intOption(p, "--layers");
    o.kernelsPerStep = intOption(p, "--kernels-per-step");
    if (auto seed = p.value("--seed")) {
        o.seed = static_cast<std::uint64_t>(intOption(p, "--seed"));
        o.seedSet = true;
    }
    if (auto c = p.value("--configs"))
        o.configs = splitCommaList(*c);
    if (auto r = p.value("--regression"))
        o.regression = fractionOption("--regression", *r);
    if (auto c = p.value("--regression-configs"))
        o.regressionConfigs = splitCommaList(*c);
    o.plants = plantsOf(p);
    return o;
}

// The study's configurations go to the end of the workspace's plan order, in the study's order.
void appendToPlan(Workspace& ws, const synth::SynthParams& params,
                  const std::vector<synth::GeneratedRun>& runs) {
    std::vector<std::string> plan = ws.planOrder(), study;
    for (const auto& c : params.configs)
        if (std::any_of(runs.begin(), runs.end(), [&](const auto& r) { return r.config == c.name; }))
            study.push_back(c.name);
    std::erase_if(
        plan, [&](const std::string& c) { return std::find(study.begin(), study.end(), c) != study.end(); });
    plan.insert(plan.end(), study.begin(), study.end());
    ws.setPlanOrder(plan);
}

void ingestRuns(const std::string& wsPath, const synth::SynthParams& params,
                const std::vector<synth::GeneratedRun>& runs) {
    Workspace ws(wsPath, Workspace::Mode::CreateIfMissing);
    ProgressBar bar("ingest");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        IngestRequest req;
        req.inputs = {runs[i].folder};
        req.runName = runs[i].name;
        req.config = runs[i].config;
        req.repeat = runs[i].repeat;
        req.study = params.study; // its runs are one ablation study, apart from any other in the workspace
        ProgressSink sink{
            [&](double f) { bar.update((static_cast<double>(i) + f) / static_cast<double>(runs.size())); }};
        const IngestResult res = ingest(ws, req, sink);
        std::cerr << "ingested " << res.runName << ": " << res.ranks << " ranks, " << res.events
                  << " events\n";
    }
    bar.finish();
    appendToPlan(ws, params, runs);
}

int runSynth(const std::vector<std::string>& args) {
    ArgParser p({"--out", "--study", "--nodes", "--gpus-per-node", "--steps", "--repeats", "--seed",
                 "--configs", "--layers", "--kernels-per-step", "--ingest", "--regression",
                 "--regression-configs", "--plant-slow-loader", "--plant-slow-gpu", "--plant-slow-link",
                 "--plant-clock-error"},
                {"--quiet"});
    p.parse(args);
    p.requirePositionals(0, 0, "no positional arguments");
    if (!p.value("--out"))
        throw UsageFailure{"--out DIR is required"};
    const auto params =
        synth::SynthParams::fromFile(synth::SynthParams::studyPath(p.valueOr("--study", "acs-llama3-8b")));
    const auto options = synth::resolveOptions(params, studyOptions(p));
    std::vector<synth::GeneratedRun> runs;
    {
        ProgressBar bar("synth");
        runs = synth::generateStudy(params, options, ProgressSink{[&](double f) { bar.update(f); }});
        bar.finish();
    }
    std::uint64_t records = 0;
    for (const auto& r : runs) {
        records += r.records;
        if (!p.has("--quiet"))
            std::cout << r.folder << "  (" << r.config << ", repeat " << r.repeat << ", " << r.records
                      << " records)\n";
    }
    std::cerr << "synth: " << runs.size() << " synthetic runs of " << options.nodes << " x "
              << options.gpusPerNode << " ranks, " << options.steps << " steps, " << records << " records in "
              << options.outDir << '\n';
    if (auto ws = p.value("--ingest"))
        ingestRuns(*ws, params, runs);
    return Ok;
}

CNP_COMMAND(
    "synth", "generate a synthetic multi-rank ablation study (.cnpt per rank), optionally ingest it",
    "usage: cnp synth --out DIR [--study NAME] [--nodes N] [--gpus-per-node G] [--steps S]\n"
    "                 [--repeats R] [--seed K] [--configs A,B,...] [--layers L]\n"
    "                 [--kernels-per-step K] [--ingest WORKSPACE] [--quiet]\n"
    "                 [--regression 5%] [--regression-configs A,B,...]\n"
    "                 [--plant-slow-loader RANK[:MS]] [--plant-slow-gpu RANK[:F]]\n"
    "                 [--plant-slow-link RANK[:F]] [--plant-clock-error NODE:US[:PPM],...]\n\n"
    "Simulates ZeRO-3 data-parallel training under each configuration of a study\n"
    "(resources/synth/NAME.yaml, default acs-llama3-8b) and writes one folder per configuration x\n"
    "repeat (DIR/NN-CONFIG-rR/rank-XXXXX.cnpt). Every file is flagged synthetic: it is a model, not a\n"
    "measurement (docs/synth.md). Defaults come from the study file. The same options and seed give\n"
    "byte-identical files.\n\n"
    "  --nodes N, --gpus-per-node G   cluster shape (ranks = N x G)\n"
    "  --steps S, --repeats R         training steps per run, runs per configuration\n"
    "  --seed K                       generator seed (jitter, straggler, clock offsets)\n"
    "  --configs A,B,...              a subset of the study's configurations\n"
    "  --layers L                     decoder layers (default: the model's)\n"
    "  --kernels-per-step K           split kernels so one rank's step has at least K (scale tests)\n"
    "  --ingest WORKSPACE             also ingest every run, labelled with its configuration and\n"
    "                                 repeat, and append the study to the plan order\n"
    "  --regression R                 an injected step-time regression: every simulated duration\n"
    "                                 x (1 + R), R a fraction or percentage (default 0: none)\n"
    "  --regression-configs A,B,...   the configurations it applies to (default: all)\n"
    "Planted problems, for checking `cnp stragglers` and `cnp collectives` (docs/synth.md):\n"
    "  --plant-slow-loader RANK[:MS]  RANK's data loader takes MS longer every step (default 20)\n"
    "  --plant-slow-gpu RANK[:F]      RANK's kernels all take F times longer (1 to 100; default 1.08)\n"
    "  --plant-slow-link RANK[:F]     RANK's part of every collective transfers F times longer\n"
    "                                 (1 to 100; default 1.5)\n"
    "  --plant-clock-error NODE:US[:PPM],...  node NODE's clock reads US microseconds late (within an hour)\n"
    "                 at the run's start and runs PPM parts per million fast (within 1000; default 0)\n",
    runSynth);

} // namespace
} // namespace cnp::cli
