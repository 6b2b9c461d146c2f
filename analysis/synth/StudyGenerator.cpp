#include "synth/StudyGenerator.h"

#include "synth/RunSimulator.h"

#include "CnptRecords.h"
#include "core/InputError.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace cnp::synth {
namespace {

constexpr Ns kRunSpacingNs = 3'600'000'000'000; // runs of one study start an hour apart on the true clock
constexpr std::int64_t kMaxRanks = 1000;

void requirePositive(const SynthParams& p, const char* what, std::int64_t v) {
    if (v <= 0)
        throw InputError(p.sourcePath, std::string(what) + " must be positive");
}

// Kernels one rank launches per step before splitting: layers x (forward + recompute + backward) + head +
// optimizer. Used to turn --kernels-per-step into a split factor.
std::int64_t naturalKernelsPerStep(const SynthParams& p, const ConfigSpec& c, int layers) {
    const auto fwd = static_cast<std::int64_t>((c.fused ? p.forwardFused : p.forward).size());
    const auto bwd = static_cast<std::int64_t>((c.fused ? p.backwardFused : p.backward).size());
    const auto head = static_cast<std::int64_t>(p.headForward.size() + p.headBackward.size());
    return layers * (2 * fwd + bwd) + head;
}

std::string folderName(int planIndex, const std::string& config, int repeat) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%02d-", planIndex + 1);
    return prefix + config + "-r" + std::to_string(repeat);
}

std::vector<std::pair<std::string, std::string>> runHeader(const SynthParams& p, const GeneratedRun& run,
                                                           std::uint64_t seed, Ns startNs) {
    char number[64];
    auto num = [&](double v) {
        std::snprintf(number, sizeof number, "%.6g", v);
        return std::string(number);
    };
    return {{cnpt::key::kProducer, "cnp synth (synthetic, not measured)"},
            {cnpt::key::kConfig, run.config},
            {cnpt::key::kRun, run.name},
            {cnpt::key::kImage, "synthetic:" + p.study},
            {cnpt::key::kStartRealtime, std::to_string(startNs)},
            {cnpt::key::kSynthetic, "1"},
            {cnpt::key::kStudy, p.study},
            {cnpt::key::kSeed, std::to_string(seed)},
            {cnpt::key::kTokensPerStep, num(run.tokensPerStep)},
            {cnpt::key::kFlopsPerStep, num(run.flopsPerStep)},
            {cnpt::key::kPeakFlops, num(run.peakFlops)}};
}

// A planted problem names a rank of the run (or -1) and slows it down, never speeds it up.
void checkPlants(const SynthParams& p, const StudyOptions& o) {
    const int world = o.nodes * o.gpusPerNode;
    const SynthPlants& k = o.plants;
    for (const int rank : {k.slowLoaderRank, k.slowGpuRank, k.slowLinkRank})
        if (rank < -1 || rank >= world)
            throw InputError(p.sourcePath, "a planted problem names rank " + std::to_string(rank) + " of " +
                                               std::to_string(world));
    if (k.slowLoaderExtraNs < 0 || !(k.slowGpuFactor >= 1) || !(k.slowLinkFactor >= 1) ||
        k.slowGpuFactor > 100 || k.slowLinkFactor > 100)
        throw InputError(p.sourcePath, "a planted problem must slow its rank down (factors 1 to 100)");
    constexpr Ns kMaxClockError = 3'600'000'000'000; // an hour
    if (static_cast<int>(k.nodeClockErrorNs.size()) > o.nodes)
        throw InputError(p.sourcePath, "a planted clock error names a node the run does not have");
    for (const Ns e : k.nodeClockErrorNs)
        if (e < -kMaxClockError || e > kMaxClockError)
            throw InputError(p.sourcePath, "a planted clock error must be within an hour");
    constexpr double kMaxDriftPpm = 1000; // 3.6 s an hour: far beyond any working oscillator
    if (static_cast<int>(k.nodeClockDriftPpm.size()) > o.nodes)
        throw InputError(p.sourcePath, "a planted clock drift names a node the run does not have");
    for (const double d : k.nodeClockDriftPpm)
        if (!(d >= -kMaxDriftPpm && d <= kMaxDriftPpm))
            throw InputError(p.sourcePath, "a planted clock drift must be within 1000 ppm");
}

} // namespace

StudyOptions resolveOptions(const SynthParams& p, StudyOptions o) {
    if (o.nodes == 0)
        o.nodes = p.defaults.nodes;
    if (o.gpusPerNode == 0)
        o.gpusPerNode = p.defaults.gpusPerNode;
    if (o.steps == 0)
        o.steps = p.defaults.steps;
    if (o.repeats == 0)
        o.repeats = p.defaults.repeats;
    if (o.layers == 0)
        o.layers = p.model.layers;
    if (!o.seedSet)
        o.seed = p.defaults.seed;
    requirePositive(p, "--nodes", o.nodes);
    requirePositive(p, "--gpus-per-node", o.gpusPerNode);
    requirePositive(p, "--steps", o.steps);
    requirePositive(p, "--repeats", o.repeats);
    requirePositive(p, "--layers", o.layers);
    if (o.kernelsPerStep < 0)
        throw InputError(p.sourcePath, "--kernels-per-step must not be negative");
    // Every rank's file stays open while the run is simulated: keep well inside the usual 1024 descriptors.
    if (static_cast<std::int64_t>(o.nodes) * o.gpusPerNode > kMaxRanks)
        throw InputError(p.sourcePath,
                         "at most " + std::to_string(kMaxRanks) + " ranks (one open file each)");
    if (o.configs.empty())
        for (const auto& c : p.configs)
            o.configs.push_back(c.name);
    for (const auto& name : o.configs)
        p.config(name); // throws for an unknown name
    checkPlants(p, o);
    if (!(o.regression >= 0 && o.regression <= 1))
        throw InputError(p.sourcePath, "--regression must lie in [0, 1] (0% to 100%)");
    for (const auto& name : o.regressionConfigs)
        p.config(name);
    return o;
}

std::vector<GeneratedRun> generateStudy(const SynthParams& p, const StudyOptions& o,
                                        const ProgressSink& sink) {
    fs::create_directories(o.outDir);
    const int world = o.nodes * o.gpusPerNode;
    const double tokensPerStep = p.model.tokensPerGpu * world;
    const double totalSteps = static_cast<double>(o.configs.size()) * o.repeats * o.steps;
    std::vector<GeneratedRun> runs;
    double done = 0;
    for (const auto& name : o.configs) {
        const ConfigSpec& c = p.config(name);
        const auto planIndex = static_cast<int>(&c - p.configs.data());
        for (int repeat = 0; repeat < o.repeats; ++repeat) {
            GeneratedRun run;
            run.config = name;
            run.repeat = repeat;
            run.planIndex = planIndex;
            run.name = name + "-r" + std::to_string(repeat);
            run.folder = (fs::path(o.outDir) / folderName(planIndex, name, repeat)).string();
            run.tokensPerStep = tokensPerStep;
            run.flopsPerStep = p.model.flopsPerToken(o.layers) * tokensPerStep;
            run.peakFlops = p.peakFlops;
            fs::create_directories(run.folder);

            RunShape shape;
            shape.nodes = o.nodes;
            shape.gpusPerNode = o.gpusPerNode;
            shape.layers = o.layers;
            const bool regressed = o.regressionConfigs.empty() ||
                                   std::find(o.regressionConfigs.begin(), o.regressionConfigs.end(), name) !=
                                       o.regressionConfigs.end();
            shape.slowdown = regressed ? 1 + o.regression : 1;
            const std::int64_t natural = naturalKernelsPerStep(p, c, o.layers);
            shape.split =
                static_cast<int>(std::max<std::int64_t>(1, (o.kernelsPerStep + natural - 1) / natural));
            // Common random numbers: every configuration of a repeat runs on the same simulated cluster (the
            // same GPUs' speed factors, the same stragglers in the same steps), so the differences between
            // configurations are their effects, not the luck of the draw.
            shape.seed = SplitMix64::derive(o.seed, static_cast<std::uint64_t>(repeat));
            const std::int64_t runIndex = static_cast<std::int64_t>(runs.size());
            shape.startNs = p.clock.startRealtimeNs + runIndex * kRunSpacingNs;
            shape.plants = o.plants;

            RunSimulator sim(p, c, shape, run.folder, runHeader(p, run, o.seed, shape.startNs));
            for (int s = 0; s < o.steps; ++s) {
                sim.runStep();
                sink.report(++done / totalSteps);
                sink.checkCancel();
            }
            run.records = sim.finish();
            runs.push_back(std::move(run));
        }
    }
    return runs;
}

} // namespace cnp::synth
