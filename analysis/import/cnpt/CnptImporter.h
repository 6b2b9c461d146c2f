#pragma once
// The .cnpt importer (files written by libcnp-collector.so; format in docs/cnpt-format.md), plain or gzip.
// One file = one process = one rank (the header's rank, 0 when the launcher set none; the ingest pipeline
// renumbers clashing ranks and merges the files of a folder into one run).
//  - Times: raw CUPTI ns mapped to Unix-epoch ns with the file's clock pairs (CnptClockModel); the offset
//    and its uncertainty go to RankInfo::clockOffsetNs / clockSkewEstimateNs.
//  - Kernels (names demangled), memcpys, memsets, runtime/driver API calls; a Flow per GPU activity whose
//    correlation id matches an API call (kernel -> launching call).
//  - NVTX push/pop and start/end ranges -> CpuRange kind Nvtx (colour from MARKER_DATA); marks -> zero-length
//    ranges. Steps are found later from their names ("step N", METRICS.md).
//  - CUDA synchronisation waits and CUPTI overhead -> CpuRange kind Other on the waiting/affected thread.
//  - MEMORY2 allocations/frees -> counter "GPU memory allocated" (bytes) per device.
//  - CUPTI's dropped records, ranges left open and a file cut short are reported in info.skipped.
// A file that is not .cnpt, or is cut before its header, throws InputError. O(records) plus O(u log u) for
// demangling the u distinct kernel names.
#include "CnptReader.h"
#include "import/Importer.h"

namespace cnp {

class CnptImporter : public Importer {
public:
    std::string formatName() const override { return "cnpt"; }
    bool canRead(const std::string& path, std::string_view head) const override; // by magic
    TraceData read(const std::string& path, const ProgressSink& sink) const override;
    // The header chunk's "rank" when the chunk lies whole in `head` and the value is a rank (>= 0).
    std::optional<std::int32_t> rankHint(std::string_view head) const override;

    // The conversion alone (tests, benchmark; the work is CnptConverter's). `path` names the source in
    // errors and RankInfo.
    static TraceData convert(const cnpt::CnptReader& reader, const std::string& path,
                             const ProgressSink& sink = {});
};

} // namespace cnp
