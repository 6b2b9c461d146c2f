#pragma once
// Parameters of a synthetic study (resources/synth/<study>.yaml, docs/synth.md): the model shape, one
// decoder layer's kernels, the collectives, the host model and the ordered configurations, each already
// resolved (a configuration inherits every value it does not set from the previous one).
// Times are in ns after loading (the file writes microseconds).
#include "core/TraceData.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp::synth {

enum class KernelKind : std::uint8_t { Gemm, Attention, Elementwise, Fused };

struct KernelSpec {
    std::string name;
    KernelKind kind = KernelKind::Gemm;
    Ns durationNs = 0; // one rank's micro-batch, before jitter
};

struct ModelShape {
    int layers = 32;
    double hidden = 4096, kvDim = 1024, ffn = 14336, vocab = 128256, seq = 4096;
    double tokensPerGpu = 8192;
    // Model FLOPs of one token with `layers` layers (forward + backward, no recompute):
    // 6 x (layer params x layers + head params) + 12 x layers x hidden x seq (attention scores), the
    // convention of MFU (recompute is not useful work).
    double flopsPerToken(int layerCount) const;
};

struct ConfigSpec {
    std::string name;
    double collectiveSpeed = 1;
    int prefetchLayers = 1;
    Ns launchApiNs = 0, launchLatencyNs = 0, hostOverheadNs = 0;
    bool hostSyncPerLayer = false;
    double cpuStallProbability = 0;
    Ns cpuStallNs = 0;
    bool fused = false;
    double recomputeFraction = 1; // share of layers whose forward runs again in the backward
};

struct CollectiveSpec {
    std::string allGatherName, reduceScatterName;
    Ns allGatherNs = 0, reduceScatterNs = 0; // 16 GPUs on 2 nodes
    double intraNodeSpeedup = 1;
    double jitter = 0;
};

struct OptimizerSpec {
    std::string adamName, normName;
    int adamKernelsPerLayer = 1, normKernelsPerLayer = 1;
    Ns adamTotalNs16 = 0; // the whole shard's Adam at 16 GPUs; scales with 16 / world
    Ns normNs = 0;
};

struct HostSpec {
    Ns dataLoadingNs = 0;
    double dataLoadingJitter = 0;
    std::int64_t batchBytes = 0;
    double gpuSpeedSpread = 0, kernelJitter = 0;
    double stragglerProbability = 0, stragglerSlowdown = 1;
};

struct ClockSpec {
    Ns startRealtimeNs = 0, cuptiEpochOffsetNs = 0;
    Ns nodeSpreadNs = 0, rankSpreadNs = 0, pairBracketNs = 0;
};

// Problems planted on purpose (tests of the straggler analysis, docs/synth.md "Planted problems"): never
// read from the study file; all off by default, and off they change no byte of the generated files.
struct SynthPlants {
    int slowLoaderRank = -1; // this rank's DataLoader takes slowLoaderExtraNs longer every step
    Ns slowLoaderExtraNs = 0;
    int slowGpuRank = -1; // this rank's GPU runs every kernel slowGpuFactor times longer
    double slowGpuFactor = 1;
    int slowLinkRank = -1; // this rank's part of every collective transfers slowLinkFactor times longer
    double slowLinkFactor = 1;
    // Node k's realtime clock reads nodeClockErrorNs[k] late (an NTP error the clock pairs carry into the
    // aligned times); nodes past the end: 0.
    std::vector<Ns> nodeClockErrorNs;
    // Node k's oscillator runs nodeClockDriftPpm[k] parts per million fast from the run's start: its
    // CUPTI and realtime clocks both read that much more late as the run goes on, so the clock pairs (one
    // offset per process) cannot remove it and the aligned times carry error + drift x (t - start); nodes
    // past the end: 0.
    std::vector<double> nodeClockDriftPpm;
};

struct RunDefaults {
    int nodes = 2, gpusPerNode = 8, steps = 10, repeats = 1;
    std::uint64_t seed = 1;
};

struct SynthParams {
    std::string study, sourcePath;
    ModelShape model;
    std::string gpuName;
    double peakFlops = 0;
    std::uint64_t gpuMemoryBytes = 0;
    RunDefaults defaults;
    ClockSpec clock;
    std::vector<KernelSpec> forward, forwardFused, backward, backwardFused, headForward, headBackward;
    CollectiveSpec collectives;
    OptimizerSpec optimizer;
    HostSpec host;
    std::vector<ConfigSpec> configs; // plan order, each resolved

    // Throws InputError naming `path` on unreadable YAML, a missing or mistyped key, or a value out of range.
    static SynthParams fromFile(const std::string& path);
    // resources/synth/<study>.yaml of the build's resource directory.
    static std::string studyPath(const std::string& study);
    // The configuration named `name`; throws InputError (naming the study file) when there is none.
    const ConfigSpec& config(const std::string& name) const;
};

} // namespace cnp::synth
