#pragma once
// Writes one run as a Chrome trace-event JSON file (the format Perfetto UI, chrome://tracing and
// the PyTorch profiler share), streamed through RapidJSON's Writer: memory O(ranks + tracks), not
// O(events), beyond the TraceData itself. Layout:
//  - one process per rank (its OS pid; ranks whose pids collide get ((rank+1) << 22) | pid), named
//    "rank R (host, pid P)"; CPU threads keep their tids; every (device, stream) of the rank is a
//    thread track with tid kGpuTrackTidBase + i, named "GPU d stream s", sorted after the CPU threads;
//  - kernels, memcpys, memsets, GPU annotations on their stream track; CUDA API calls and CPU ranges
//    (cpu_op, user_annotation, python_function; NVTX and synchronisation ranges as user_annotation
//    with args "cnp kind" and "domain") on their thread, where timestamps nest them;
//  - launch -> GPU activity flows as Kineto's "ac2g" s/f pairs (f binds to the enclosing slice, bp e),
//    id = correlation id (multi-rank files: ((rank+1) << 40) | correlation, to stay unique);
//  - counters as "C" events on the rank's process;
//  - Kineto's top-level keys (schemaVersion, deviceProperties, distributedInfo for a one-rank run,
//    cuda_driver_version, cuda_runtime_version, cupti_version, baseTimeNanoseconds).
// Times: ts and dur are µs written with exactly three decimals from integer arithmetic (no double
// rounding), relative to baseTimeNanoseconds (the earliest event time floored to a whole second), so
// re-ingesting the file with the Kineto importer reproduces every ns. Category args carry each
// kernel's category. Strings that are not valid UTF-8 are repaired (U+FFFD).
#include "core/TraceData.h"

#include <cstdint>
#include <string>

namespace cnp {

class ChromeTraceExporter {
public:
    static constexpr std::int64_t kGpuTrackTidBase = 1LL << 30; // above any Linux tid (< 2^22)

    explicit ChromeTraceExporter(const TraceData& trace) : trace_(trace) {}

    // Writes the file (gzip when `path` ends in .gz) atomically; returns the number of trace events.
    // Throws InputError naming `path` when it cannot be written.
    std::int64_t write(const std::string& path) const;

    // "12.345" for 12345 ns: µs with three decimals, exact for any int64.
    static std::string formatMicros(Ns ns);

private:
    const TraceData& trace_;
};

} // namespace cnp
