#pragma once
// Generates a synthetic study (docs/synth.md): one folder of .cnpt rank files per configuration x repeat,
// each a simulation of ZeRO-3 data-parallel training on nodes x gpusPerNode ranks.
//
// The simulation runs all ranks of a run in lockstep, phase by phase (layer forward, layer backward...).
// Per rank it keeps a CPU cursor (the launching thread) and the time each stream becomes free; a kernel
// starts at max(its launch call + launch latency, its stream free, its dependencies), a collective ends
// for every rank at the same instant (the last rank's arrival + its duration), so a slow rank shows up
// as waiting (long NCCL kernels) on every other rank. Records are written per step: memory is
// O(ranks x layers), independent of the number of steps or events.
// Determinism: every random draw comes from SplitMix64 streams derived from (seed, repeat, rank); the same
// options give byte-identical files. The configuration is not part of the seed (common random numbers:
// all configurations of a repeat see the same cluster), so configuration effects are not masked by luck.
#include "synth/SynthParams.h"

#include "store/Workspace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp::synth {

struct StudyOptions {
    std::string outDir;
    int nodes = 0, gpusPerNode = 0, steps = 0, repeats = 0; // 0: the study file's default
    int layers = 0;                                         // 0: the model's layer count
    std::int64_t kernelsPerStep = 0; // > 0: split every kernel so one rank's step has at least this many
    std::uint64_t seed = 0;
    bool seedSet = false;             // else the study file's seed
    std::vector<std::string> configs; // empty: all, in the study's order
    SynthPlants plants;               // problems planted in every run (off by default)
    // An injected step-time regression (the release-history benchmark, docs/synth.md): every duration of
    // the runs of `regressionConfigs` (empty: every configuration) x (1 + regression). 0: none, and the
    // output is byte-identical to a study generated without it. In [0, 1].
    double regression = 0;
    std::vector<std::string> regressionConfigs;
};

struct GeneratedRun {
    std::string config, name, folder;
    int repeat = 0;
    int planIndex = 0;         // position of the configuration in the study's plan order
    std::uint64_t records = 0; // records written over all rank files
    double tokensPerStep = 0;  // whole job
    double flopsPerStep = 0;   // model FLOPs per step, whole job
    double peakFlops = 0;      // per GPU
};

// Resolves options against the study's defaults. Throws InputError (naming the study file) for an unknown
// configuration or a value out of range.
StudyOptions resolveOptions(const SynthParams& params, StudyOptions options);

// Writes every run of the (resolved) options. Progress goes to `sink` in [0, 1]; cancellable.
// Throws InputError when a file cannot be written.
std::vector<GeneratedRun> generateStudy(const SynthParams& params, const StudyOptions& options,
                                        const ProgressSink& sink = {});

} // namespace cnp::synth
