#pragma once
// The stored rows of the summary tables (docs/schema.md, "Summary tables"), one member per column but
// run_id (the run a buffer or reader is for). store/Tables.h pairs each column with its member, so
// SummaryRowBuffers binds and SummaryRowReader reads them by the table description, never by position.
// Times in integer ns (from the trace's origin), sizes in bytes. `*_id` columns are held as their text.
#include <cstdint>
#include <optional>
#include <string>

namespace cnp {

// summary_rank: per (run, rank). The window columns are NULL for a rank without GPU work; the columns
// from graph_launch_count to launched_communication_total_ns were added after the table's first release
// and read NULL (0 / nullopt) until a workspace's summaries are rebuilt. launch_bound_idle_ns (schema v4)
// is filled by the v3 -> v4 migration from the stored gaps.
struct SummaryRankRow {
    std::int32_t rank = 0;
    std::int64_t kernelCount = 0, memcpyCount = 0, memsetCount = 0, runtimeCount = 0, driverCount = 0,
                 cpuRangeCount = 0, flowCount = 0, gpuAnnotationCount = 0;
    std::int64_t kernelTimeNs = 0;
    std::optional<std::int64_t> windowStartNs, windowEndNs;
    std::int64_t computeNs = 0, communicationNs = 0, overlapNs = 0, memoryNs = 0, idleNs = 0,
                 communicationTotalNs = 0;
    std::int64_t memcpyBytes = 0, memcpyTimeNs = 0, memsetTimeNs = 0;
    std::int64_t pageableMemcpyCount = 0, pageableMemcpyNs = 0, syncMemcpyCount = 0, syncMemcpyNs = 0;
    std::int64_t launchedKernelCount = 0;
    double launchDelayMeanNs = 0;
    std::int64_t launchDelayMedianNs = 0, launchDelayP95Ns = 0, launchDelayMaxNs = 0, shortKernelCount = 0;
    double launchApiMeanNs = 0;
    std::int64_t deviceSyncCount = 0, deviceSyncNs = 0, streamSyncCount = 0, streamSyncNs = 0;
    std::int64_t graphLaunchCount = 0, graphKernelCount = 0;
    std::optional<std::int64_t> orphanCount; // nullopt: the row predates the orphan columns
    std::int64_t orphanNs = 0;
    std::optional<std::int64_t> launchedWindowStartNs, launchedWindowEndNs;
    std::int64_t launchedComputeNs = 0, launchedCommunicationNs = 0, launchedOverlapNs = 0,
                 launchedMemoryNs = 0, launchedIdleNs = 0, launchedCommunicationTotalNs = 0;
    std::int64_t launchBoundIdleNs = 0; // sum of the rank's stored launch-bound gaps, every step and none
};

// summary_step: per (run, rank, step).
struct SummaryStepRow {
    std::int32_t rank = 0, stepIndex = 0;
    std::string name; // "" when the string is missing
    std::int64_t cpuStartNs = 0, cpuEndNs = 0, gpuStartNs = 0, gpuEndNs = 0;
    std::int64_t computeNs = 0, communicationNs = 0, overlapNs = 0, memoryNs = 0, idleNs = 0,
                 communicationTotalNs = 0;
    std::int64_t deviceSyncCount = 0;
    std::int64_t launchBoundIdleNs = 0; // sum of the step's stored launch-bound gaps (schema v4)
};

// summary_exclusive: per (run, rank, step or -1 = the whole window, category).
struct SummaryExclusiveRow {
    std::int32_t rank = 0, stepIndex = 0;
    std::string category;
    std::int64_t exclusiveNs = 0;
};

// summary_kernel: per (run, rank or -1 = all ranks, kernel name).
struct SummaryKernelRow {
    std::int32_t rank = 0;
    std::string name;
    std::optional<std::string> category; // nullopt when the string is missing
    std::int64_t count = 0, totalNs = 0;
    double meanNs = 0, medianNs = 0;
    std::int64_t minNs = 0, maxNs = 0;
    double stddevNs = 0;
};

// summary_gap: one GPU idle gap of a rank.
struct SummaryGapRow {
    std::int32_t rank = 0, stepIndex = -1;
    std::int64_t startNs = 0, endNs = 0;
    std::string cpuState;
    std::int64_t launches = 0, syncNs = 0, dataWaitNs = 0;
    std::optional<std::string> nextName; // nullopt: no next kernel (stored as id 0)
    std::int64_t nextLaunchNs = -1;
};

// summary_sync: one CPU-blocking stream/event synchronisation inside a step.
struct SummarySyncRow {
    std::int32_t rank = 0, stepIndex = 0;
    std::string api;
    std::int64_t startNs = 0, endNs = 0, dtohBytes = 0;
};

// summary_stream: one GPU stream of a rank, its work and launch queue (docs/metrics.md, "Streams").
struct SummaryStreamRow {
    std::int32_t rank = 0, device = 0;
    std::int64_t stream = 0;
    std::int64_t kernelCount = 0;
    std::int64_t computeNs = 0, communicationNs = 0, memoryNs = 0; // summed durations on the stream
    std::optional<std::string> topKernel; // the compute kernel with the most time on it; nullopt: none
    std::int64_t topKernelNs = 0;
    std::int64_t queueMax = 0;  // launch queue length (metrics/StreamQueueLength.h)
    double queueMean = 0;       // time-weighted
    std::int64_t queuedOps = 0; // operations with their launch call in the trace
};

// Where the summary rows of one run go as they are computed (metrics/RunSummaries.h): the store's
// SummaryRowBuffers binds them for writing; a test may keep them as they are.
class SummaryRowSink {
public:
    virtual ~SummaryRowSink() = default;
    virtual void add(const SummaryRankRow& r) = 0;
    virtual void add(const SummaryStepRow& r) = 0;
    virtual void add(const SummaryExclusiveRow& r) = 0;
    virtual void add(const SummaryKernelRow& r) = 0;
    virtual void add(const SummaryGapRow& r) = 0;
    virtual void add(const SummarySyncRow& r) = 0;
    virtual void add(const SummaryStreamRow&) {} // a sink that keeps other rows may drop these
};

} // namespace cnp
