#include "synth/RunSimulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cnp::synth {
namespace {

constexpr std::uint32_t kLaunchCbid = 211; // CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000
constexpr std::uint32_t kOtherCbid = 0;    // other calls are identified by name, as the analysis does
constexpr Ns kStartSkewNs = 2'000'000;     // launcher start skew between ranks (up to 2 ms)
constexpr double kHostJitter = 0.2;        // relative sd of one launch call's and one op's host time
constexpr double kHtoDBytesPerNs = 25.0;   // pinned host -> device copy at 25 GB/s
constexpr Ns kWaitReturnNs = 2'000;        // a blocking wait returns this long after its condition

Ns scaled(Ns ns, double factor) {
    return static_cast<Ns>(std::llround(static_cast<double>(ns) * factor));
}

struct LaunchShape {
    int grid, block;
};

LaunchShape launchShape(KernelKind k) {
    switch (k) {
    case KernelKind::Gemm:
        return {132, 384}; // one persistent CTA per SM
    case KernelKind::Attention:
        return {512, 128};
    case KernelKind::Elementwise:
        return {65536, 128};
    case KernelKind::Fused:
        return {32768, 256};
    }
    return {1, 1};
}

} // namespace

struct RunSimulator::Rank {
    RankIdentity id;
    SplitMix64 rng{0};
    std::unique_ptr<RankTraceWriter> out;
    Ns cpu = 0;          // the launching thread's clock
    Ns free[2] = {0, 0}; // compute, comm stream: when its last queued work ends
    double speed = 1;    // persistent GPU speed factor (> 1 = slower)
    double slow = 1;     // this step's straggler factor
    Ns clockErrorNs = 0; // planted: how late its host's realtime clock reads
    std::uint32_t mainTid = 0, autogradTid = 0;
    std::uint32_t stepRange = 0, phaseRange = 0;
    std::uint32_t sLaunch = 0, sMemcpy = 0, sEventSync = 0, sStreamSync = 0;
    std::uint32_t sStep = 0, sData = 0, sForward = 0, sBackward = 0, sRecompute = 0, sOptimizer = 0;
    Ns& stream(Stream s) { return free[s == Stream::Compute ? 0 : 1]; }
};

RunSimulator::RunSimulator(const SynthParams& params, const ConfigSpec& config, const RunShape& shape,
                           const std::string& folder,
                           const std::vector<std::pair<std::string, std::string>>& header)
    : p_(params), c_(config), shape_(shape), shared_(SplitMix64::derive(shape.seed, 0)) {
    const int world = shape.worldSize();
    // Collective times scale with (world - 1) / world against the 16-GPU, 2-node reference; one node
    // runs over NVLink instead of the network.
    const double worldScale = world > 1 ? (static_cast<double>(world - 1) / world) / (15.0 / 16.0) : 0.0;
    const double linkScale = shape.nodes == 1 ? 1.0 / p_.collectives.intraNodeSpeedup : 1.0;
    gatherNs_ =
        scaled(p_.collectives.allGatherNs, worldScale * linkScale / c_.collectiveSpeed * shape_.slowdown);
    reduceNs_ =
        scaled(p_.collectives.reduceScatterNs, worldScale * linkScale / c_.collectiveSpeed * shape_.slowdown);

    std::vector<Ns> nodeOffset(static_cast<std::size_t>(shape.nodes));
    for (auto& o : nodeOffset)
        o = p_.clock.cuptiEpochOffsetNs + scaled(p_.clock.nodeSpreadNs, 2 * shared_.uniform() - 1);
    for (int rank = 0; rank < world; ++rank) {
        auto r = std::make_unique<Rank>();
        r->rng = SplitMix64(SplitMix64::derive(shape.seed, 1000 + static_cast<std::uint64_t>(rank)));
        r->id.rank = rank;
        r->id.node = rank / shape.gpusPerNode;
        r->id.localRank = rank % shape.gpusPerNode;
        r->id.worldSize = world;
        r->id.pid = 40000 + rank;
        r->id.clockOffsetNs = nodeOffset[static_cast<std::size_t>(r->id.node)] +
                              scaled(p_.clock.rankSpreadNs, 2 * r->rng.uniform() - 1);
        r->mainTid = static_cast<std::uint32_t>(r->id.pid);
        r->autogradTid = r->mainTid + 1;
        r->speed = r->rng.jitter(p_.host.gpuSpeedSpread);
        if (rank == shape.plants.slowGpuRank)
            r->speed *= shape.plants.slowGpuFactor;
        r->cpu = shape.startNs + scaled(kStartSkewNs, r->rng.uniform());
        if (static_cast<std::size_t>(r->id.node) < shape.plants.nodeClockErrorNs.size())
            r->clockErrorNs = shape.plants.nodeClockErrorNs[static_cast<std::size_t>(r->id.node)];
        if (static_cast<std::size_t>(r->id.node) < shape.plants.nodeClockDriftPpm.size()) {
            r->id.driftPpm = shape.plants.nodeClockDriftPpm[static_cast<std::size_t>(r->id.node)];
            r->id.driftOriginNs = shape.startNs;
        }
        char file[32];
        std::snprintf(file, sizeof file, "/rank-%05d.cnpt", rank);
        r->out = std::make_unique<RankTraceWriter>(folder + file, r->id, header, p_.gpuName,
                                                   p_.gpuMemoryBytes, r->rng);
        RankTraceWriter& o = *r->out;
        r->sLaunch = o.intern("cudaLaunchKernel");
        r->sMemcpy = o.intern("cudaMemcpyAsync");
        r->sEventSync = o.intern("cudaEventSynchronize");
        r->sStreamSync = o.intern("cudaStreamSynchronize");
        r->sStep = o.intern("train_step");
        r->sData = o.intern("DataLoader.__next__");
        r->sForward = o.intern("forward");
        r->sBackward = o.intern("backward");
        r->sRecompute = o.intern("recompute");
        r->sOptimizer = o.intern("optimizer.step");
        o.clockPair(r->cpu, p_.clock.pairBracketNs, r->rng, r->clockErrorNs);
        ranks_.push_back(std::move(r));
    }
}

RunSimulator::~RunSimulator() = default;

void RunSimulator::runStep() {
    // The straggler of this step (if any) is drawn once for all ranks.
    const bool straggle = shared_.chance(p_.host.stragglerProbability);
    const auto straggler = static_cast<std::size_t>(shared_.next() % ranks_.size());
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
        ranks_[i]->slow = straggle && i == straggler ? p_.host.stragglerSlowdown : 1.0;
        beginStep(*ranks_[i]);
    }
    std::vector<Ns> gatherEnd(static_cast<std::size_t>(shape_.layers), 0);
    forward(gatherEnd);
    backward(gatherEnd);
    optimizer();
    for (auto& r : ranks_)
        endStep(*r);
}

void RunSimulator::beginStep(Rank& r) {
    RankTraceWriter& o = *r.out;
    r.stepRange = o.rangeStart(r.cpu, r.mainTid, r.sStep);
    const std::uint32_t data = o.rangeStart(r.cpu, r.mainTid, r.sData);
    r.cpu += scaled(p_.host.dataLoadingNs, r.rng.jitter(p_.host.dataLoadingJitter) * shape_.slowdown);
    if (r.id.rank == shape_.plants.slowLoaderRank)
        r.cpu += shape_.plants.slowLoaderExtraNs;
    o.rangeEnd(r.cpu, data, r.mainTid);
    // The batch's host -> device copy, then the forward.
    const std::uint32_t corr = o.nextCorrelation();
    const Ns callEnd = r.cpu + scaled(c_.launchApiNs, r.rng.jitter(kHostJitter) * shape_.slowdown);
    o.api(r.cpu, callEnd, corr, r.mainTid, r.sMemcpy, kOtherCbid);
    Ns& compute = r.stream(Stream::Compute);
    const Ns start = std::max(r.cpu + c_.launchLatencyNs, compute);
    compute = start + scaled(p_.host.batchBytes, 1.0 / kHtoDBytesPerNs * shape_.slowdown);
    o.memcpyHtoD(start, compute, corr, static_cast<std::uint32_t>(Stream::Compute),
                 static_cast<std::uint64_t>(p_.host.batchBytes));
    r.cpu = callEnd + c_.hostOverheadNs;
    r.phaseRange = o.rangeStart(r.cpu, r.mainTid, r.sForward);
}

void RunSimulator::endStep(Rank& r) {
    r.out->rangeEnd(r.cpu, r.stepRange, r.mainTid);
    r.out->clockPair(r.cpu, p_.clock.pairBracketNs, r.rng, r.clockErrorNs);
    r.out->flush();
}

bool RunSimulator::recomputed(int layer) const {
    // Checkpointed layers spread evenly: layer l is recomputed when floor((l + 1) f) > floor(l f).
    const double f = c_.recomputeFraction;
    return std::floor((layer + 1) * f) > std::floor(layer * f);
}

void RunSimulator::issueGather(int layer, std::vector<Ns>& gatherEnd) {
    if (gatherNs_ > 0)
        gatherEnd[static_cast<std::size_t>(layer)] =
            collective(p_.collectives.allGatherName, gatherNs_, false);
}

void RunSimulator::forward(std::vector<Ns>& gatherEnd) {
    const int layers = shape_.layers, prefetch = c_.prefetchLayers;
    const auto& kernels = c_.fused ? p_.forwardFused : p_.forward;
    for (int l = 0; l < std::min(prefetch, layers); ++l)
        issueGather(l, gatherEnd);
    for (int l = 0; l < layers; ++l) {
        if (l + prefetch < layers)
            issueGather(l + prefetch, gatherEnd);
        const Ns ready = gatherEnd[static_cast<std::size_t>(l)];
        for (auto& r : ranks_) {
            if (c_.hostSyncPerLayer)
                hostWait(*r, ready, r->sEventSync, c_.hostOverheadNs);
            computeLayer(*r, kernels, ready, r->mainTid);
        }
    }
    for (auto& r : ranks_)
        computeLayer(*r, p_.headForward, 0, r->mainTid);
}

void RunSimulator::backward(std::vector<Ns>& gatherEnd) {
    const int layers = shape_.layers, prefetch = c_.prefetchLayers;
    const auto& fwd = c_.fused ? p_.forwardFused : p_.forward;
    const auto& bwd = c_.fused ? p_.backwardFused : p_.backward;
    for (auto& r : ranks_) {
        r->out->rangeEnd(r->cpu, r->phaseRange, r->mainTid);
        r->phaseRange = r->out->rangeStart(r->cpu, r->mainTid, r->sBackward);
        computeLayer(*r, p_.headBackward, 0, r->autogradTid);
    }
    for (int i = 0; i < std::min(prefetch, layers); ++i)
        issueGather(layers - 1 - i, gatherEnd);
    for (int l = layers - 1; l >= 0; --l) {
        if (l - prefetch >= 0)
            issueGather(l - prefetch, gatherEnd);
        const Ns ready = gatherEnd[static_cast<std::size_t>(l)];
        for (auto& r : ranks_) {
            if (c_.hostSyncPerLayer)
                hostWait(*r, ready, r->sEventSync, c_.hostOverheadNs);
            if (recomputed(l)) {
                // On the thread that launches the recomputed forward, as a checkpoint function's own NVTX
                // range would be: the range categoriser matches ranges on the launching thread.
                const std::uint32_t range = r->out->rangeStart(r->cpu, r->autogradTid, r->sRecompute);
                computeLayer(*r, fwd, ready, r->autogradTid);
                r->out->rangeEnd(r->cpu, range, r->autogradTid);
            }
            computeLayer(*r, bwd, ready, r->autogradTid);
        }
        if (reduceNs_ > 0)
            collective(p_.collectives.reduceScatterName, reduceNs_, true);
    }
    for (auto& r : ranks_)
        r->out->rangeEnd(r->cpu, r->phaseRange, r->mainTid);
}

void RunSimulator::optimizer() {
    const OptimizerSpec& o = p_.optimizer;
    const int norms = o.normKernelsPerLayer * shape_.layers, adams = o.adamKernelsPerLayer * shape_.layers;
    // Adam works on this rank's 1/world shard: its total time scales with 16 / world.
    const Ns adamNs = scaled(o.adamTotalNs16, 16.0 / shape_.worldSize() / adams);
    const KernelSpec norm{o.normName, KernelKind::Elementwise, o.normNs};
    const KernelSpec adam{o.adamName, KernelKind::Elementwise, adamNs};
    for (auto& r : ranks_) {
        r->phaseRange = r->out->rangeStart(r->cpu, r->mainTid, r->sOptimizer);
        for (int i = 0; i < norms; ++i)
            launchKernel(*r, norm, norm.durationNs, 0, r->mainTid);
        // Gradient clipping reads the global norm on the host: every stream must drain first.
        hostWait(*r, std::max(r->stream(Stream::Compute), r->stream(Stream::Comm)), r->sStreamSync,
                 c_.hostOverheadNs);
        for (int i = 0; i < adams; ++i)
            launchKernel(*r, adam, adam.durationNs, 0, r->mainTid);
        // loss.item() at the end of the step.
        hostWait(*r, r->stream(Stream::Compute), r->sStreamSync, c_.hostOverheadNs);
        r->out->rangeEnd(r->cpu, r->phaseRange, r->mainTid);
    }
}

void RunSimulator::computeLayer(Rank& r, const std::vector<KernelSpec>& kernels, Ns waitNs,
                                std::uint32_t tid) {
    for (const auto& k : kernels) {
        const Ns piece = std::max<Ns>(1, k.durationNs / shape_.split);
        for (int i = 0; i < shape_.split; ++i)
            launchKernel(r, k, piece, waitNs, tid);
    }
}

void RunSimulator::launchKernel(Rank& r, const KernelSpec& k, Ns durationNs, Ns waitNs, std::uint32_t tid) {
    // Both draws always happen, so every configuration consumes the random streams in step and sees
    // the same kernel jitter (common random numbers, see StudyGenerator.h).
    const bool stall = r.rng.chance(c_.cpuStallProbability);
    const double stallScale = 0.5 + r.rng.uniform();
    if (stall)
        r.cpu += scaled(c_.cpuStallNs, stallScale * shape_.slowdown);
    RankTraceWriter& o = *r.out;
    const std::uint32_t corr = o.nextCorrelation();
    const Ns callEnd = r.cpu + scaled(c_.launchApiNs, r.rng.jitter(kHostJitter) * shape_.slowdown);
    o.api(r.cpu, callEnd, corr, tid, r.sLaunch, kLaunchCbid);
    Ns& compute = r.stream(Stream::Compute);
    const Ns start = std::max({r.cpu + c_.launchLatencyNs, compute, waitNs});
    compute =
        start + scaled(durationNs, r.speed * r.slow * r.rng.jitter(p_.host.kernelJitter) * shape_.slowdown);
    const LaunchShape shape = launchShape(k.kind);
    o.kernel(start, compute, corr, static_cast<std::uint32_t>(Stream::Compute), o.intern(k.name), shape.grid,
             shape.block);
    r.cpu = callEnd + scaled(c_.hostOverheadNs, r.rng.jitter(kHostJitter) * shape_.slowdown);
}

Ns RunSimulator::collective(const std::string& name, Ns durationNs, bool afterCompute) {
    // Each rank launches; its kernel starts when its comm stream (and, for gradients, its compute stream)
    // is free, and spins until the last rank has arrived and the transfer is done.
    std::vector<Ns> ready(ranks_.size());
    std::vector<std::uint32_t> corr(ranks_.size());
    Ns lastArrival = 0;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
        Rank& r = *ranks_[i];
        corr[i] = r.out->nextCorrelation();
        const Ns callEnd = r.cpu + scaled(c_.launchApiNs, r.rng.jitter(kHostJitter) * shape_.slowdown);
        r.out->api(r.cpu, callEnd, corr[i], r.mainTid, r.sLaunch, kLaunchCbid);
        ready[i] = std::max(r.cpu + c_.launchLatencyNs, r.stream(Stream::Comm));
        if (afterCompute)
            ready[i] = std::max(ready[i], r.stream(Stream::Compute));
        lastArrival = std::max(lastArrival, ready[i]);
        r.cpu = callEnd + scaled(c_.hostOverheadNs, r.rng.jitter(kHostJitter) * shape_.slowdown);
    }
    const Ns transfer = scaled(durationNs, shared_.jitter(p_.collectives.jitter));
    const Ns end = lastArrival + transfer;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
        Rank& r = *ranks_[i];
        // A planted slow link: this rank's part of the transfer takes longer and its kernel ends later (the
        // layer's compute dependency keeps the others' end).
        const Ns own = r.id.rank == shape_.plants.slowLinkRank
                           ? lastArrival + scaled(transfer, shape_.plants.slowLinkFactor)
                           : end;
        r.out->kernel(ready[i], own, corr[i], static_cast<std::uint32_t>(Stream::Comm), r.out->intern(name),
                      32, 512);
        r.stream(Stream::Comm) = own;
    }
    return end;
}

void RunSimulator::hostWait(Rank& r, Ns untilNs, std::uint32_t call, Ns afterNs) {
    const Ns end = std::max(r.cpu, untilNs) + kWaitReturnNs;
    r.out->api(r.cpu, end, r.out->nextCorrelation(), r.mainTid, call, kOtherCbid);
    r.cpu = end + afterNs;
}

std::uint64_t RunSimulator::finish() {
    std::uint64_t records = 0;
    for (auto& r : ranks_) {
        r->out->clockPair(r->cpu, p_.clock.pairBracketNs, r->rng, r->clockErrorNs);
        r->out->finish(r->cpu);
        records += r->out->records();
    }
    return records;
}

} // namespace cnp::synth
