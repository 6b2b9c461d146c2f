#pragma once
// In-memory form of one run (all its ranks) between an importer and the workspace.
// Invariants every importer guarantees before handing a TraceData to the ingest (ingest/IngestPipeline.h):
//  - all times are int64 nanoseconds on one absolute clock (Unix epoch ns where the source allows it);
//  - end >= start for every event (events with negative duration are skipped and counted);
//  - string fields are ids into `strings`; id 0 is "";
//  - `rank` fields index into `ranks` by RankInfo::rank value (not by vector position).
// Event vectors need not be sorted: the ingest's normaliseTrace sorts each by (rank, start) before
// Workspace::insertEvents stores them.
#include "core/CollectiveArgs.h"
#include "core/StringTable.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

using Ns = std::int64_t;

enum class CpuRangeKind : std::uint8_t {
    CpuOp = 0,
    UserAnnotation = 1,
    PythonFunction = 2,
    Nvtx = 3,
    Other = 4
};
enum class ApiKind : std::uint8_t { Runtime = 0, Driver = 1 };
// Memcpy direction as in CUPTI's CUpti_ActivityMemcpyKind (HtoD=1, DtoH=2, DtoD=8, PtoP=10, unknown=0 ...).
enum class MemcpyKind : std::uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10
};
// Memory kind of a memcpy endpoint, as in CUpti_ActivityMemoryKind (pageable=1, pinned=2, device=3 ...).
enum class MemoryKind : std::uint8_t {
    Unknown = 0,
    Pageable = 1,
    Pinned = 2,
    Device = 3,
    Array = 4,
    Managed = 5,
    DeviceStatic = 6,
    ManagedStatic = 7
};

const char* toString(CpuRangeKind k);
const char* toString(ApiKind k);
const char* toString(MemcpyKind k);
const char* toString(MemoryKind k);

struct KernelEvent {
    Ns start = 0, end = 0;
    std::int64_t correlation = 0; // 0 = unknown
    std::int64_t stream = 0;
    std::int32_t rank = 0, device = 0;
    std::int32_t grid[3] = {0, 0, 0};
    std::int32_t block[3] = {0, 0, 0};
    std::int32_t registers = 0;
    std::int32_t staticSmem = 0, dynamicSmem = 0; // bytes
    StringId name = 0;
    StringId category = 0; // filled by the categoriser at ingest
};

struct MemcpyEvent {
    Ns start = 0, end = 0;
    std::int64_t correlation = 0, stream = 0;
    std::int64_t bytes = 0;
    std::int32_t rank = 0, device = 0;
    MemcpyKind kind = MemcpyKind::Unknown;
    MemoryKind srcKind = MemoryKind::Unknown, dstKind = MemoryKind::Unknown;
    StringId name = 0;
};

struct MemsetEvent {
    Ns start = 0, end = 0;
    std::int64_t correlation = 0, stream = 0;
    std::int64_t bytes = 0;
    std::int32_t rank = 0, device = 0;
    std::int32_t value = 0;
    MemoryKind memKind = MemoryKind::Unknown;
    StringId name = 0;
};

// A CUDA runtime or driver API call on a CPU thread.
struct ApiCall {
    Ns start = 0, end = 0;
    std::int64_t correlation = 0;
    std::int64_t pid = 0, tid = 0;
    std::int32_t rank = 0;
    ApiKind kind = ApiKind::Runtime;
    StringId name = 0;
};

// A CPU-side range: cpu_op, user_annotation, python_function or NVTX push/pop/start-end.
// depth = nesting depth on its thread (0 = outermost), computed by the ingest's normaliseTrace when left -1.
struct CpuRange {
    Ns start = 0, end = 0;
    std::int64_t pid = 0, tid = 0;
    std::int64_t correlation = 0; // external id / NVTX id, informative
    std::int32_t rank = 0;
    std::int32_t depth = -1;
    CpuRangeKind kind = CpuRangeKind::CpuOp;
    StringId name = 0;
    StringId domain = 0;     // NVTX domain
    std::uint32_t color = 0; // ARGB, 0 = none
};

// GPU-side annotation ranges (Kineto gpu_user_annotation, NVTX projected on a stream).
struct GpuAnnotation {
    Ns start = 0, end = 0;
    std::int64_t stream = 0;
    std::int32_t rank = 0, device = 0;
    StringId name = 0;
};

// Launch -> GPU activity flow, keyed by correlation id (Kineto "ac2g", CUPTI correlation).
struct Flow {
    std::int64_t correlation = 0;
    std::int32_t rank = 0;
    Ns cpuTs = 0;         // start of the launching API call
    std::int64_t tid = 0; // launching thread
    Ns gpuTs = 0;         // start of the GPU activity
    std::int64_t stream = 0;
};

// Per-GPU counter sample (e.g. memory in use), for timeline counter tracks.
struct CounterSample {
    Ns ts = 0;
    double value = 0;
    std::int32_t rank = 0, device = 0;
    StringId name = 0;
};

// A training step as found by the step detector (see docs/metrics.md).
struct StepRange {
    std::int32_t rank = 0;
    std::int32_t index = 0; // step number: ProfilerStep#3 -> 3, else the ordinal (StepDetector.h)
    StringId name = 0;
    Ns cpuStart = 0, cpuEnd = 0;
    Ns gpuStart = -1, gpuEnd = -1; // -1 = no GPU work found
};

struct RankInfo {
    std::int32_t rank = 0;
    // The source names this rank (Kineto distributedInfo.rank, the .cnpt header, nsys MPI ranks); false
    // when the importer defaulted it. Two files claiming one rank are refused at ingest; a defaulted rank
    // that repeats one takes the next free rank.
    bool rankClaimed = false;
    std::int32_t localRank = -1;
    std::string host;
    std::int64_t pid = 0;
    std::vector<std::string> gpuNames; // one per device seen on this rank
    std::vector<std::string> gpuUuids;
    Ns clockOffsetNs = 0;       // added to this rank's raw timestamps during alignment
    Ns clockSkewEstimateNs = 0; // residual uncertainty of the alignment
    std::string sourceFile;
};

// How much of a source was refused event by event (the file as a whole was sound).
struct SkipReport {
    std::int64_t count = 0;
    std::int64_t firstOffset = -1; // byte offset (or record index) of the first skipped event
    std::string firstReason;
    void add(std::int64_t offset, const std::string& reason) {
        if (count++ == 0) {
            firstOffset = offset;
            firstReason = reason;
        }
    }
};

struct RunInfo {
    std::string name;
    std::string config; // configuration label, e.g. "Base+ACCL"
    std::int32_t repeat = 0;
    std::string sourceFormat; // "kineto", "nsys", "cnpt", "synthetic"
    std::vector<std::string> sourceFiles;
    std::string host;
    std::int32_t worldSize = 1;
    std::vector<std::string> gpuModels;
    std::string driverVersion, cudaVersion, cuptiVersion;
    std::string containerImage;
    std::vector<std::pair<std::string, std::string>> env; // allow-listed only, see EnvAllowList
    bool synthetic = false;
    SkipReport skipped;
    // What an importer found but does not analyse, one sentence each naming the file (e.g. a trace with
    // only another accelerator's events); shown by ingest as warnings, not stored.
    std::vector<std::string> importWarnings;
    double tokensPerStep = 0; // 0 = unknown
    double flopsPerStep = 0;  // model FLOPs per step, 0 = unknown
    double peakFlops = 0;     // peak FLOP/s of one GPU, 0 = unknown
};

// Folds the run information of another part of the same run into `into`: source files and environment
// appended, GPU models united, skips counted, the largest world size, empty text fields filled.
void mergeRunInfo(RunInfo& into, RunInfo&& other);

struct TraceData {
    RunInfo info;
    std::vector<RankInfo> ranks;
    StringTable strings;
    std::vector<KernelEvent> kernels;
    std::vector<MemcpyEvent> memcpys;
    std::vector<MemsetEvent> memsets;
    std::vector<ApiCall> apiCalls;
    std::vector<CpuRange> cpuRanges;
    std::vector<GpuAnnotation> gpuAnnotations;
    std::vector<Flow> flows;
    std::vector<CounterSample> counters;
    std::vector<StepRange> steps; // filled by the step detector at ingest unless the importer knows better
    // NCCL call arguments of communication kernels where the trace records them; not events (not in
    // eventCount), stored with the rank's events (collective_args). At most one per (rank, stream, start).
    std::vector<CollectiveArgs> collectiveArgs;

    std::size_t eventCount() const {
        return kernels.size() + memcpys.size() + memsets.size() + apiCalls.size() + cpuRanges.size() +
               gpuAnnotations.size() + flows.size() + counters.size();
    }
    // Appends `other`'s events (re-interning its strings) as additional ranks of this run.
    void merge(TraceData&& other);
    // merge() of every part, in order, with each table grown once to its final size and each part's table
    // freed as soon as it is copied: O(events), peak memory about this run plus its largest table.
    void mergeAll(std::vector<TraceData>&& parts);
};

} // namespace cnp
