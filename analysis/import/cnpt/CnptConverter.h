#pragma once
// One .cnpt file's records -> a TraceData (what CnptImporter::convert does; the mapping is described in
// CnptImporter.h). One object per conversion, run() called once: a first pass reads the clock pairs and
// counts the records, the second hands each record to the handler of its type (one member function per
// record kind), then the parts that need every record (launch flows, synchronisation threads, NVTX
// colours, what was skipped) are completed. O(records) plus O(u log u) for demangling u kernel names.
#include "CnptReader.h"
#include "core/ProgressSink.h"
#include "core/TraceData.h"
#include "import/cnpt/CnptClockModel.h"
#include "import/common/CopyNames.h"
#include "import/common/FlowLinker.h"
#include "import/common/SkipCounter.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace cnp {

class CnptConverter {
public:
    // `path` names the source in errors and RankInfo. The reader and sink must outlive the converter.
    CnptConverter(const cnpt::CnptReader& reader, const std::string& path, const ProgressSink& sink);
    CnptConverter(const CnptConverter&) = delete; // members refer to t_
    CnptConverter& operator=(const CnptConverter&) = delete;

    // Throws InputError when the file was cut before its header.
    TraceData run();

private:
    // What the first pass learns: clock pairs and how many records of each type follow.
    struct Census {
        std::vector<cnpt::ClockPairRecord> pairs;
        std::size_t total = 0;
        std::size_t counts[16] = {};
        std::size_t count(cnpt::RecordType t) const { return counts[static_cast<unsigned>(t) & 15u]; }
    };
    struct OpenRange {
        std::uint64_t start = 0;
        std::uint32_t pid = 0, tid = 0, name = 0, domain = 0;
    };
    struct SyncWait {
        std::uint64_t start, end;
        std::uint32_t correlation, type;
        std::int64_t offset;
    };
    using Body = const unsigned char*;

    static Census takeCensus(const cnpt::CnptReader& reader);
    void readHeader();
    void reserve();
    void dispatch(cnpt::RecordType type, Body body, std::uint16_t size, std::int64_t offset);

    void onKernel(Body body, std::uint16_t size, std::int64_t offset);
    void onMemcpy(Body body, std::uint16_t size, std::int64_t offset);
    void onMemset(Body body, std::uint16_t size, std::int64_t offset);
    void onApi(Body body, std::uint16_t size, std::int64_t offset);
    void onMarker(Body body, std::uint16_t size, std::int64_t offset);
    void onMarkerData(Body body, std::uint16_t size);
    void onSynchronization(Body body, std::uint16_t size, std::int64_t offset);
    void onOverhead(Body body, std::uint16_t size, std::int64_t offset);
    void onMemory(Body body, std::uint16_t size, std::int64_t offset);
    void onDevice(Body body, std::uint16_t size);
    void onDropped(Body body, std::uint16_t size);

    void addSyncWaits();
    void applyColours();
    void reportSkips();

    // [start, end] of a record on the realtime clock; false (the record skipped and counted) when it
    // ends before it starts or either time is out of the sane range.
    bool span(std::uint64_t start, std::uint64_t end, std::int64_t offset, const char* what, Ns& s, Ns& e);
    // The fields kernel, memcpy and memset records share (correlation, stream, this rank, device).
    template <class Record, class Event> void copyGpuFields(const Record& r, Event& e) const {
        e.correlation = r.correlation;
        e.stream = r.stream;
        e.rank = rank_.rank;
        e.device = static_cast<std::int32_t>(r.device);
    }
    // Keeps a GPU activity and offers it to the launch-flow linker.
    template <class Event> void addGpuActivity(std::vector<Event>& to, const Event& e) {
        to.push_back(e);
        flows_.addActivity(0, e.rank, e.correlation, e.start, e.stream);
    }
    // File string ids -> trace string ids, interned on first use (kernel names demangled).
    StringId str(std::uint32_t id);
    StringId kernelName(std::uint32_t id);
    // A CpuRange of this rank for an NVTX range or mark.
    void addNvtx(Ns start, Ns end, std::uint32_t pid, std::uint32_t tid, std::uint32_t id, std::uint32_t name,
                 std::uint32_t domain);

    const cnpt::CnptReader& r_;
    const std::string& path_;
    const ProgressSink& sink_;
    const Census census_;
    const CnptClockModel clock_;
    TraceData t_;
    RankInfo rank_;
    SkipCounter skips_{t_.info.skipped};
    CopyNames copyNames_{t_.strings};
    FlowLinker flows_; // one process per file: scope 0

    std::vector<StringId> plain_, demangled_; // 0 = not interned yet (a real name is never id 0 but "")
    std::vector<bool> havePlain_, haveDemangled_;
    std::unordered_map<std::uint32_t, OpenRange> open_;
    std::unordered_map<std::uint32_t, std::size_t> rangeById_; // marker id -> index in t_.cpuRanges
    std::unordered_map<std::uint32_t, std::uint32_t> colourById_;
    std::map<std::uint32_t, std::int64_t> allocated_; // device -> bytes currently allocated
    std::map<std::uint64_t, std::pair<std::uint32_t, std::uint64_t>>
        liveAllocations_; // address -> device, bytes
    std::vector<SyncWait> syncs_;
    std::uint64_t dropped_ = 0;
    std::size_t seen_ = 0;
    StringId memAllocName_ = 0;
};

} // namespace cnp
