#pragma once
// What a run's summaries say, as plain values (docs/metrics.md; stored as docs/schema.md, "Summary
// tables"): per rank, per step, per kernel name, per idle gap and per blocking sync. The store reads them
// (store/RunSummaryReader.h), the metrics compute from them. Times in integer ns.
#include "core/Interval.h"
#include "core/TraceData.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

// Temporal breakdown of one window (docs/metrics.md): compute + communication + memory + idle == window.
struct BreakdownNs {
    Ns compute = 0, communication = 0, overlap = 0, memory = 0, idle = 0;
    Ns communicationTotal = 0; // |M|: all communication time, hidden or not
    Ns window() const { return compute + communication + memory + idle; }
    // overlap / |M|; nullopt when there is no communication.
    std::optional<double> overlapFraction() const {
        if (communicationTotal <= 0)
            return std::nullopt;
        return static_cast<double>(overlap) / static_cast<double>(communicationTotal);
    }
};

// (category, exclusive ns), categories in exclusive-priority order, "idle" last.
using ExclusiveNs = std::vector<std::pair<std::string, Ns>>;

struct EventCounts {
    std::int64_t kernel = 0, memcpy = 0, memset = 0, runtime = 0, driver = 0, cpuRange = 0, flow = 0,
                 gpuAnnotation = 0;
};

struct LaunchStats {
    std::int64_t launchedKernels = 0; // kernels joined to their launch call by correlation id
    double meanDelayNs = 0;           // launch call start -> kernel start
    Ns medianDelayNs = 0, p95DelayNs = 0, maxDelayNs = 0;
    std::int64_t shorterThanLaunch = 0; // kernels whose duration < their launch call's duration
    double meanLaunchCallNs = 0;
    // CUDA graph replays: kernels whose launch call is a graph launch (not in launchedKernels), and the
    // number of distinct graph launches that replayed them.
    std::int64_t graphKernels = 0, graphLaunches = 0;
};

// GPU work whose launch call is not in the trace (launched before the capture began), and the window
// and breakdown of the rank without it (docs/metrics.md, "Windows").
struct OrphanStats {
    std::int64_t count = 0;
    Ns busyNs = 0; // sum of the orphan activities' durations
    std::optional<Interval> launchedWindow;
    BreakdownNs launchedBreakdown;
};

struct RankSummary {
    std::int32_t rank = 0;
    EventCounts counts;
    Ns kernelTimeNs = 0;
    std::optional<Interval> window; // whole-trace GPU window; nullopt for a rank without GPU work
    BreakdownNs breakdown;
    ExclusiveNs exclusive;
    std::int64_t memcpyBytes = 0;
    Ns memcpyTimeNs = 0, memsetTimeNs = 0;
    std::int64_t pageableMemcpyCount = 0, syncMemcpyCount = 0;
    Ns pageableMemcpyNs = 0, syncMemcpyNs = 0;
    LaunchStats launch;
    OrphanStats orphans;
    std::int64_t deviceSyncCount = 0, streamSyncCount = 0; // inside steps
    Ns deviceSyncNs = 0, streamSyncNs = 0;
    Ns launchBoundIdleNs = 0; // the rank's launch-bound idle gaps (>= 10 us), inside steps or not
};

struct StepSummary {
    std::int32_t rank = 0, index = 0;
    std::string name;
    Ns cpuStart = 0, cpuEnd = 0, gpuStart = -1, gpuEnd = -1;
    BreakdownNs breakdown;
    ExclusiveNs exclusive;
    std::int64_t deviceSyncCount = 0;
    Ns launchBoundIdleNs = 0; // the step's launch-bound idle gaps (>= 10 us)
    bool hasGpu() const { return gpuStart >= 0; }
    Ns length() const { return hasGpu() ? gpuEnd - gpuStart : 0; }
};

// Step i of a multi-rank run: step time = max over ranks of the rank's window length.
struct MultiRankStep {
    std::int32_t index = 0;
    std::string name;
    Ns stepTimeNs = 0;
    std::int32_t slowestRank = 0;      // the rank whose window defines the step time
    Ns skewNs = 0;                     // max - min window length over ranks
    std::int32_t lastToFinishRank = 0; // latest gpu end
    Ns finishSpreadNs = 0;             // latest - earliest gpu end over ranks
    std::int32_t mostExposedCommRank = 0;
    Ns mostExposedCommNs = 0;
    std::int32_t ranks = 0;
    const StepSummary* slowest = nullptr; // points into the vector passed to aggregateSteps()
};

struct KernelStatRow {
    std::string name, category;
    std::int64_t count = 0;
    Ns totalNs = 0, minNs = 0, maxNs = 0;
    double meanNs = 0, medianNs = 0, stddevNs = 0;
    double percent = 0; // of the total kernel time of the same scope (rank or run)
};

struct IdleGap {
    std::int32_t rank = 0, stepIndex = -1;
    Ns start = 0, end = 0;
    // "launch-bound" (next work launched after the GPU went idle), "waiting-on-data" (a DataLoader range
    // covers >= half the gap), "synchronising" (blocking sync calls cover >= half), "gpu-dependency"
    // (next work was already queued), "unknown".
    std::string cpuState;
    std::int64_t launches = 0;
    Ns syncNs = 0, dataWaitNs = 0;
    std::string nextKernel;
    Ns nextLaunchNs = -1;
    Ns length() const { return end - start; }
};

// A CPU-blocking stream/event synchronisation inside a step (cudaStreamSynchronize, cudaEventSynchronize).
struct BlockingSync {
    std::int32_t rank = 0, stepIndex = 0;
    std::string api;
    Ns start = 0, end = 0;
    std::int64_t dtohBytes = 0; // the device-to-host copy its thread issued just before, 0 = none
    Ns length() const { return end - start; }
};

} // namespace cnp
