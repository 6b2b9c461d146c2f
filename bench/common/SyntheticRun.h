#pragma once
// One synthetic run (cnp synth's simulator, the acs-llama3-8b study's Base configuration) of `nodes` x `gpus`
// ranks and `steps` steps, its rank files written under <dir>/traces: the benchmarks' input.
#include "synth/StudyGenerator.h"

#include <filesystem>
#include <string>

namespace cnp::bench {

// The folder holding the run's rank files.
inline std::string syntheticRun(const std::filesystem::path& dir, int nodes, int gpus, int steps) {
    const auto params = synth::SynthParams::fromFile(synth::SynthParams::studyPath("acs-llama3-8b"));
    synth::StudyOptions o;
    o.outDir = (dir / "traces").string();
    o.nodes = nodes;
    o.gpusPerNode = gpus;
    o.steps = steps;
    o.repeats = 1;
    o.configs = {"Base"};
    return synth::generateStudy(params, synth::resolveOptions(params, o)).at(0).folder;
}

} // namespace cnp::bench
