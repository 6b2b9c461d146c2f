#pragma once
// Simulates one run (one configuration, one repeat) of a synthetic study on every rank at once and writes
// one .cnpt per rank (see StudyGenerator.h for the model). Not thread-safe; one simulator per run.
#include "synth/RankTraceWriter.h"
#include "synth/SplitMix64.h"
#include "synth/SynthParams.h"

#include "store/Workspace.h"

#include <memory>
#include <string>
#include <vector>

namespace cnp::synth {

struct RunShape {
    int nodes = 1, gpusPerNode = 1, layers = 1;
    int split = 1; // every kernel is issued as `split` equal pieces (the --kernels-per-step knob)
    std::uint64_t seed = 0;
    // Every simulated duration (kernels, collectives, host calls, data loading, copies) x this factor: an
    // injected step-time regression (1.05 = 5 % slower). Exactly 1 leaves every draw and byte unchanged.
    double slowdown = 1;
    Ns startNs = 0; // true (Unix) time of the run's first step
    SynthPlants plants;
    int worldSize() const { return nodes * gpusPerNode; }
};

class RunSimulator {
public:
    // Creates `folder`'s rank files (rank-00000.cnpt ...) with `header` in each.
    RunSimulator(const SynthParams& params, const ConfigSpec& config, const RunShape& shape,
                 const std::string& folder, const std::vector<std::pair<std::string, std::string>>& header);
    ~RunSimulator();
    RunSimulator(const RunSimulator&) = delete;
    RunSimulator& operator=(const RunSimulator&) = delete;

    // Simulates and writes the next step on every rank.
    void runStep();
    // Closes every file; returns the records written in all of them.
    std::uint64_t finish();

private:
    struct Rank;
    // ZeRO-3 issues gathers and reduce-scatters on one NCCL communicator stream, so they serialise.
    enum class Stream : std::uint32_t { Compute = 7, Comm = 13 };

    void forward(std::vector<Ns>& gatherEnd);
    void backward(std::vector<Ns>& gatherEnd);
    void optimizer();
    void computeLayer(Rank& r, const std::vector<KernelSpec>& kernels, Ns waitNs, std::uint32_t tid);
    void launchKernel(Rank& r, const KernelSpec& k, Ns durationNs, Ns waitNs, std::uint32_t tid);
    // A collective every rank launches on the comm stream; ends for all ranks at the same instant.
    // afterCompute: it may only start once the rank's compute stream is free (gradients ready).
    Ns collective(const std::string& name, Ns durationNs, bool afterCompute);
    // The host blocks in `call` until `untilNs`, then spends `afterNs` before its next launch.
    void hostWait(Rank& r, Ns untilNs, std::uint32_t call, Ns afterNs);
    void issueGather(int layer, std::vector<Ns>& gatherEnd);
    bool recomputed(int layer) const;
    void beginStep(Rank& r);
    void endStep(Rank& r);

    const SynthParams& p_;
    const ConfigSpec& c_;
    RunShape shape_;
    SplitMix64 shared_; // draws common to all ranks (collective durations, the straggler)
    std::vector<std::unique_ptr<Rank>> ranks_;
    Ns gatherNs_ = 0, reduceNs_ = 0; // collective durations at this world size and configuration
};

} // namespace cnp::synth
