#pragma once
// Turns one Nsight Systems SQLite export into a TraceData (the mapping is documented table by table
// in docs/nsys-mapping.md). One reader per file; read() is called once.
//
// Invariants of the result:
//  - times are int64 ns on the Unix epoch: nsys stores ns since the session start, and
//    TARGET_INFO_SESSION_START_TIME.utcEpochNs (when present) is added to every timestamp;
//  - one rank per process with GPU activity (kernel, memcpy, memset), ordered by pid, or by the
//    MPI rank when every such process named a thread "MPI Rank N" through NVTX; events of other
//    processes are not imported; a file without GPU activity makes one rank per process with CUDA
//    API or NVTX events;
//  - API names lose their `_v<digits>` version suffix; only CUDA runtime and driver event classes
//    are read from CUPTI_ACTIVITY_KIND_RUNTIME (the "CUDA backtrace" duplicates are not);
//  - no environment variable is read: of TARGET_INFO_SYSTEM_ENV only the Hostname, NvDriverVersion
//    and CudaDriverVersion properties are queried by exact name, META_DATA_CAPTURE is never read.
// Cost: one pass over each event table, O(rows) time; memory O(imported events + distinct strings).
#include "core/TraceData.h"
#include "import/common/CopyNames.h"
#include "import/common/FlowLinker.h"
#include "import/nsys/NsysDatabase.h"
#include "store/Workspace.h"

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace cnp::nsys {

class NsysReader {
public:
    NsysReader(const std::string& path, const ProgressSink& sink);
    ~NsysReader();
    NsysReader(const NsysReader&) = delete;
    NsysReader& operator=(const NsysReader&) = delete;

    TraceData read();

private:
    void readSessionStart();
    void assignRanks();
    void readKernels();
    void readMemcpys();
    void readMemsets();
    void readApiCalls();
    void readSynchronization();
    void readNvtx();
    void readGpuInfo();
    void readSystemInfo();
    void buildFlows();

    // Runs `sql`, calling `row` for each result row; checks for cancellation every 64 Ki rows and
    // turns SQLite errors (corrupt pages, I/O) into InputError naming the file.
    void forEachRow(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row);
    // Our StringId for an nsys StringIds id (looked up once, then cached); 0 for NULL/unknown ids.
    StringId nsysString(std::int64_t nsysId);
    StringId apiName(std::int64_t nsysId); // nsysString with the version suffix stripped
    // [start, end] (nsys session ns) shifted by the epoch into `s`, `e`; false when a time leaves the
    // sane range (core/TimeBounds.h) or the event ends before it starts: the row (column 0 = rowid of
    // `table`) is then skipped and counted.
    // The row's times from columns startColumn and endColumn, shifted to the epoch; false (the row skipped
    // and counted) when one is not an integer, out of range, or the end is before the start.
    bool rowTimes(sqlite3_stmt* st, const char* table, int startColumn, int endColumn, Ns& s, Ns& e);
    // The rank of a serialized globalPid/globalTid, or -1 when its process is not imported.
    std::int32_t rankOfGlobalId(std::int64_t globalId) const;
    void noteDevice(std::int32_t rank, std::int32_t device);

    NsysDatabase db_;
    const ProgressSink& sink_;
    TraceData trace_;
    Ns epoch_ = 0;
    sqlite3_stmt* stringLookup_ = nullptr;
    std::unordered_map<std::int64_t, StringId> stringCache_, apiNameCache_;
    std::unordered_map<std::int64_t, std::int32_t> rankOfPid_;
    std::map<std::int32_t, std::vector<std::int32_t>> devicesOfRank_; // distinct devices per rank
    CopyNames copyNames_{trace_.strings};
    FlowLinker flows_; // scope = pid: correlation ids are unique per process
};

} // namespace cnp::nsys
