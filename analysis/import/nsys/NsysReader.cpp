#include "import/nsys/NsysReader.h"

#include "core/InputError.h"
#include "core/TimeBounds.h"
#include "import/common/CudaVersionText.h"
#include "import/common/SkipCounter.h"
#include "import/nsys/NsysNames.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

namespace cnp::nsys {

namespace {

constexpr const char* kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kSyncTable = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
constexpr const char* kNvtxTable = "NVTX_EVENTS";

std::int64_t colInt(sqlite3_stmt* st, int c, std::int64_t fallback = 0) {
    return sqlite3_column_type(st, c) == SQLITE_NULL ? fallback : sqlite3_column_int64(st, c);
}

bool colIsNull(sqlite3_stmt* st, int c) {
    return sqlite3_column_type(st, c) == SQLITE_NULL;
}

std::string_view colText(sqlite3_stmt* st, int c) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(st, c)))
             : std::string_view();
}

// "MPI Rank 12" -> 12; -1 when the text is not of that form.
std::int32_t mpiRankFromThreadName(std::string_view s) {
    constexpr std::string_view prefix = "MPI Rank ";
    if (s.substr(0, prefix.size()) != prefix || s.size() == prefix.size() || s.size() > prefix.size() + 9)
        return -1;
    std::int32_t v = 0;
    for (char c : s.substr(prefix.size())) {
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

const char* syncTypeFallbackLabel(std::int64_t t) {
    switch (t) {
    case 1:
        return "Event sync";
    case 2:
        return "Stream wait sync";
    case 3:
        return "Stream sync";
    case 4:
        return "Context sync";
    default:
        return "Unknown sync";
    }
}

} // namespace

NsysReader::NsysReader(const std::string& path, const ProgressSink& sink) : db_(path), sink_(sink) {
    db_.setCancelFlag(sink.cancel);
    if (sqlite3_prepare_v2(db_.db(), "SELECT value FROM StringIds WHERE id=?", -1, &stringLookup_, nullptr) !=
        SQLITE_OK)
        throw InputError(path, std::string("unreadable StringIds table: ") + sqlite3_errmsg(db_.db()));
}

NsysReader::~NsysReader() {
    sqlite3_finalize(stringLookup_);
}

void NsysReader::forEachRow(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_.db(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        db_.failQuery("unreadable Nsight Systems table");
    struct Finalizer {
        sqlite3_stmt* s;
        ~Finalizer() { sqlite3_finalize(s); }
    } guard{st};
    std::int64_t n = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        row(st);
        if ((++n & 0xFFFF) == 0)
            sink_.checkCancel();
    }
    if (rc != SQLITE_DONE)
        db_.failQuery("corrupt or unreadable SQLite data");
}

StringId NsysReader::nsysString(std::int64_t nsysId) {
    auto it = stringCache_.find(nsysId);
    if (it != stringCache_.end())
        return it->second;
    StringId id = 0;
    sqlite3_reset(stringLookup_);
    sqlite3_bind_int64(stringLookup_, 1, nsysId);
    const int rc = sqlite3_step(stringLookup_);
    if (rc == SQLITE_ROW)
        id = trace_.strings.intern(colText(stringLookup_, 0));
    else if (rc != SQLITE_DONE)
        db_.failQuery("corrupt StringIds table");
    stringCache_.emplace(nsysId, id);
    return id;
}

StringId NsysReader::apiName(std::int64_t nsysId) {
    auto it = apiNameCache_.find(nsysId);
    if (it != apiNameCache_.end())
        return it->second;
    const std::string full = trace_.strings.at(nsysString(nsysId));
    const StringId id = trace_.strings.intern(stripApiVersionSuffix(full));
    apiNameCache_.emplace(nsysId, id);
    return id;
}

bool NsysReader::rowTimes(sqlite3_stmt* st, const char* table, int startColumn, int endColumn, Ns& s, Ns& e) {
    // A time must be an integer: NULL, text, a blob or a real read as 0 made a zero-length event at the
    // session start (issue 33.7); such a row is skipped and counted, as Kineto's are.
    for (const int c : {startColumn, endColumn}) {
        const int type = sqlite3_column_type(st, c);
        if (type == SQLITE_INTEGER)
            continue;
        const std::int64_t row = colInt(st, 0);
        const char* kind = type == SQLITE_NULL   ? "NULL"
                           : type == SQLITE_TEXT ? "text"
                           : type == SQLITE_BLOB ? "a blob"
                                                 : "a real";
        SkipCounter(trace_.info.skipped)
            .refuse(row, std::string(table) + " row " + std::to_string(row) + ": " +
                             sqlite3_column_name(st, c) + " is " + kind + ", not an integer time");
        return false;
    }
    const auto a = shiftedTime(sqlite3_column_int64(st, startColumn), epoch_),
               b = shiftedTime(sqlite3_column_int64(st, endColumn), epoch_);
    const SkipCounter::SpanFault fault = SkipCounter::spanFault(a, b);
    if (fault != SkipCounter::SpanFault::None) {
        const std::int64_t row = colInt(st, 0);
        SkipCounter(trace_.info.skipped)
            .refuse(row,
                    SkipCounter::reason(fault, std::string(table) + " row " + std::to_string(row) + ":"));
        return false;
    }
    s = *a;
    e = *b;
    return true;
}

std::int32_t NsysReader::rankOfGlobalId(std::int64_t globalId) const {
    auto it = rankOfPid_.find(pidOf(globalId));
    return it == rankOfPid_.end() ? -1 : it->second;
}

void NsysReader::noteDevice(std::int32_t rank, std::int32_t device) {
    auto& devs = devicesOfRank_[rank];
    if (std::find(devs.begin(), devs.end(), device) == devs.end())
        devs.push_back(device);
}

TraceData NsysReader::read() {
    trace_.info.sourceFormat = "nsys";
    trace_.info.sourceFiles = {db_.path()};
    readSessionStart();
    assignRanks();
    // Row counts up front: the event vectors are filled without reallocation (it was a tenth of the
    // time on a 0.5 M-event file).
    auto rows = [&](const char* table) -> std::size_t {
        return db_.hasTable(table)
                   ? static_cast<std::size_t>(
                         db_.queryInt(std::string("SELECT count(*) FROM ") + table).value_or(0))
                   : 0;
    };
    trace_.kernels.reserve(rows(kKernelTable));
    trace_.memcpys.reserve(rows(kMemcpyTable));
    trace_.memsets.reserve(rows(kMemsetTable));
    trace_.apiCalls.reserve(rows(kRuntimeTable));
    trace_.flows.reserve(trace_.kernels.capacity() + trace_.memcpys.capacity() + trace_.memsets.capacity());
    flows_.reserve(trace_.apiCalls.capacity(), trace_.flows.capacity());
    sink_.report(0.05);
    readKernels();
    sink_.report(0.35);
    readMemcpys();
    readMemsets();
    sink_.report(0.45);
    readApiCalls();
    sink_.report(0.75);
    buildFlows();
    readSynchronization();
    readNvtx();
    sink_.report(0.95);
    readGpuInfo();
    readSystemInfo();
    trace_.info.worldSize = static_cast<std::int32_t>(trace_.ranks.size());
    sink_.report(1.0);
    return std::move(trace_);
}

void NsysReader::readSessionStart() {
    if (db_.hasColumn("TARGET_INFO_SESSION_START_TIME", "utcEpochNs"))
        epoch_ = db_.queryInt("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1").value_or(0);
}

void NsysReader::assignRanks() {
    std::set<std::int64_t> pids;
    for (const char* t : {kKernelTable, kMemcpyTable, kMemsetTable}) {
        if (!db_.hasTable(t))
            continue;
        forEachRow("SELECT DISTINCT " + db_.columnOr(t, "globalPid", "NULL") + " FROM " + t,
                   [&](sqlite3_stmt* st) { pids.insert(pidOf(colInt(st, 0))); });
    }
    if (pids.empty()) { // no GPU activity: every process with CUDA API or NVTX events is a rank
        for (const char* t : {kRuntimeTable, kNvtxTable}) {
            if (!db_.hasTable(t) || !db_.hasColumn(t, "globalTid"))
                continue;
            forEachRow(std::string("SELECT DISTINCT globalTid FROM ") + t,
                       [&](sqlite3_stmt* st) { pids.insert(pidOf(colInt(st, 0))); });
        }
    }
    if (pids.empty())
        throw InputError(db_.path(),
                         "no CUDA kernels, memory copies, CUDA API calls or NVTX ranges to import");

    // MPI rank names that nsys's MPI tracing gives threads ("MPI Rank N", NVTX event type NvtxThread).
    std::map<std::int64_t, std::int32_t> mpiRank;
    const std::int64_t nvtxThread = db_.enumId("ENUM_NSYS_EVENT_TYPE", "NvtxThread", 39);
    if (db_.hasColumn(kNvtxTable, "eventType") && db_.hasColumn(kNvtxTable, "globalTid")) {
        forEachRow("SELECT globalTid, " + db_.columnOr(kNvtxTable, "text", "NULL") + ", " +
                       db_.columnOr(kNvtxTable, "textId", "NULL") +
                       " FROM NVTX_EVENTS WHERE eventType=" + std::to_string(nvtxThread),
                   [&](sqlite3_stmt* st) {
                       std::string name(colText(st, 1));
                       if (colIsNull(st, 1) && !colIsNull(st, 2))
                           name = trace_.strings.at(nsysString(colInt(st, 2)));
                       const auto r = mpiRankFromThreadName(name);
                       if (r >= 0)
                           mpiRank[pidOf(colInt(st, 0))] = r;
                   });
    }
    std::set<std::int32_t> distinct;
    bool useMpi = true;
    for (auto pid : pids) {
        auto it = mpiRank.find(pid);
        useMpi = useMpi && it != mpiRank.end() && distinct.insert(it->second).second;
    }
    std::int32_t next = 0;
    for (auto pid : pids) {
        RankInfo r;
        r.rank = useMpi ? mpiRank[pid] : next++;
        r.rankClaimed = useMpi;
        r.pid = pid;
        r.sourceFile = db_.path();
        rankOfPid_[pid] = r.rank;
        trace_.ranks.push_back(std::move(r));
    }
    std::sort(trace_.ranks.begin(), trace_.ranks.end(),
              [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
}

void NsysReader::readKernels() {
    const char* t = kKernelTable;
    if (!db_.hasTable(t))
        return;
    const std::string sql =
        std::string("SELECT rowid, start, end, deviceId, streamId, ") +
        db_.columnOr(t, "correlationId", "0") + ", " + db_.columnOr(t, "globalPid", "NULL") + ", " +
        db_.columnOr(t, "demangledName", "0") + ", " + db_.columnOr(t, "shortName", "0") + ", " +
        db_.columnOr(t, "gridX", "0") + ", " + db_.columnOr(t, "gridY", "0") + ", " +
        db_.columnOr(t, "gridZ", "0") + ", " + db_.columnOr(t, "blockX", "0") + ", " +
        db_.columnOr(t, "blockY", "0") + ", " + db_.columnOr(t, "blockZ", "0") + ", " +
        db_.columnOr(t, "registersPerThread", "0") + ", " + db_.columnOr(t, "staticSharedMemory", "0") +
        ", " + db_.columnOr(t, "dynamicSharedMemory", "0") + " FROM " + t;
    forEachRow(sql, [&](sqlite3_stmt* st) {
        const std::int32_t rank = rankOfGlobalId(colInt(st, 6));
        if (rank < 0)
            return;
        KernelEvent k;
        if (!rowTimes(st, "CUPTI_ACTIVITY_KIND_KERNEL", 1, 2, k.start, k.end))
            return;
        k.device = static_cast<std::int32_t>(colInt(st, 3));
        k.stream = colInt(st, 4);
        k.correlation = colInt(st, 5);
        k.rank = rank;
        k.name = colInt(st, 7) ? nsysString(colInt(st, 7)) : 0;
        if (k.name == 0)
            k.name = nsysString(colInt(st, 8));
        for (int i = 0; i < 3; ++i) {
            k.grid[i] = static_cast<std::int32_t>(colInt(st, 9 + i));
            k.block[i] = static_cast<std::int32_t>(colInt(st, 12 + i));
        }
        k.registers = static_cast<std::int32_t>(colInt(st, 15));
        k.staticSmem = static_cast<std::int32_t>(colInt(st, 16));
        k.dynamicSmem = static_cast<std::int32_t>(colInt(st, 17));
        noteDevice(rank, k.device);
        flows_.addActivity(pidOf(colInt(st, 6)), rank, k.correlation, k.start, k.stream);
        trace_.kernels.push_back(k);
    });
}

void NsysReader::readMemcpys() {
    const char* t = kMemcpyTable;
    if (!db_.hasTable(t))
        return;
    const std::string sql = std::string("SELECT rowid, start, end, deviceId, streamId, ") +
                            db_.columnOr(t, "correlationId", "0") + ", " +
                            db_.columnOr(t, "globalPid", "NULL") + ", " + db_.columnOr(t, "bytes", "0") +
                            ", " + db_.columnOr(t, "copyKind", "0") + ", " + db_.columnOr(t, "srcKind", "7") +
                            ", " + db_.columnOr(t, "dstKind", "7") + " FROM " + t;
    forEachRow(sql, [&](sqlite3_stmt* st) {
        const std::int32_t rank = rankOfGlobalId(colInt(st, 6));
        if (rank < 0)
            return;
        MemcpyEvent m;
        if (!rowTimes(st, "CUPTI_ACTIVITY_KIND_MEMCPY", 1, 2, m.start, m.end))
            return;
        m.device = static_cast<std::int32_t>(colInt(st, 3));
        m.stream = colInt(st, 4);
        m.correlation = colInt(st, 5);
        m.rank = rank;
        m.bytes = colInt(st, 7);
        m.kind = memcpyKindFromNsys(colInt(st, 8));
        m.srcKind = memoryKindFromNsys(colInt(st, 9, 7));
        m.dstKind = memoryKindFromNsys(colInt(st, 10, 7));
        m.name = copyNames_.memcpyId(m.kind, m.srcKind, m.dstKind);
        noteDevice(rank, m.device);
        flows_.addActivity(pidOf(colInt(st, 6)), rank, m.correlation, m.start, m.stream);
        trace_.memcpys.push_back(m);
    });
}

void NsysReader::readMemsets() {
    const char* t = kMemsetTable;
    if (!db_.hasTable(t))
        return;
    const std::string sql = std::string("SELECT rowid, start, end, deviceId, streamId, ") +
                            db_.columnOr(t, "correlationId", "0") + ", " +
                            db_.columnOr(t, "globalPid", "NULL") + ", " + db_.columnOr(t, "bytes", "0") +
                            ", " + db_.columnOr(t, "value", "0") + ", " + db_.columnOr(t, "memKind", "7") +
                            " FROM " + t;
    forEachRow(sql, [&](sqlite3_stmt* st) {
        const std::int32_t rank = rankOfGlobalId(colInt(st, 6));
        if (rank < 0)
            return;
        MemsetEvent m;
        if (!rowTimes(st, "CUPTI_ACTIVITY_KIND_MEMSET", 1, 2, m.start, m.end))
            return;
        m.device = static_cast<std::int32_t>(colInt(st, 3));
        m.stream = colInt(st, 4);
        m.correlation = colInt(st, 5);
        m.rank = rank;
        m.bytes = colInt(st, 7);
        m.value = static_cast<std::int32_t>(colInt(st, 8));
        m.memKind = memoryKindFromNsys(colInt(st, 9, 7));
        m.name = copyNames_.memsetId(m.memKind);
        noteDevice(rank, m.device);
        flows_.addActivity(pidOf(colInt(st, 6)), rank, m.correlation, m.start, m.stream);
        trace_.memsets.push_back(m);
    });
}

void NsysReader::readApiCalls() {
    const char* t = kRuntimeTable;
    if (!db_.hasTable(t) || !db_.hasColumn(t, "nameId") || !db_.hasColumn(t, "globalTid"))
        return;
    // eventClass: 0 = CUDA runtime, 1 = CUDA driver (ENUM_NSYS_EVENT_CLASS in 3.x; the same values in
    // 2.x). Other classes (67 = "CUDA backtrace") duplicate calls and are not read.
    const std::int64_t runtimeClass =
        db_.enumId("ENUM_NSYS_EVENT_CLASS", "TRACE_PROCESS_EVENT_CUDA_RUNTIME", 0);
    const std::int64_t driverClass =
        db_.enumId("ENUM_NSYS_EVENT_CLASS", "TRACE_PROCESS_EVENT_CUDA_DRIVER", 1);
    const bool hasClass = db_.hasColumn(t, "eventClass");
    std::string sql = std::string("SELECT rowid, start, end, ") +
                      (hasClass ? "eventClass" : std::to_string(runtimeClass)) + ", globalTid, " +
                      db_.columnOr(t, "correlationId", "0") + ", nameId FROM " + t;
    if (hasClass)
        sql +=
            " WHERE eventClass IN (" + std::to_string(runtimeClass) + "," + std::to_string(driverClass) + ")";
    forEachRow(sql, [&](sqlite3_stmt* st) {
        const std::int64_t gtid = colInt(st, 4);
        const std::int32_t rank = rankOfGlobalId(gtid);
        if (rank < 0)
            return;
        ApiCall a;
        if (!rowTimes(st, "CUPTI_ACTIVITY_KIND_RUNTIME", 1, 2, a.start, a.end))
            return;
        a.kind =
            colInt(st, 3) == driverClass && driverClass != runtimeClass ? ApiKind::Driver : ApiKind::Runtime;
        a.pid = pidOf(gtid);
        a.tid = tidOf(gtid);
        a.correlation = colInt(st, 5);
        a.rank = rank;
        a.name = apiName(colInt(st, 6));
        flows_.addLaunch(a.pid, a);
        trace_.apiCalls.push_back(a);
    });
}

// One flow per kernel, memcpy, memset (in that order) whose launching call is known.
void NsysReader::buildFlows() {
    flows_.linkInto(trace_.flows);
}

void NsysReader::readSynchronization() {
    const char* t = kSyncTable;
    if (!db_.hasTable(t))
        return;
    const StringId domain = trace_.strings.intern("CUDA synchronization");
    std::map<std::int64_t, StringId> names;
    const std::string sql = std::string("SELECT rowid, start, end, ") + db_.columnOr(t, "globalPid", "NULL") +
                            ", " + db_.columnOr(t, "correlationId", "0") + ", " +
                            db_.columnOr(t, "syncType", "0") + " FROM " + t;
    forEachRow(sql, [&](sqlite3_stmt* st) {
        const std::int64_t gpid = colInt(st, 3);
        const std::int32_t rank = rankOfGlobalId(gpid);
        if (rank < 0)
            return;
        CpuRange r;
        if (!rowTimes(st, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 1, 2, r.start, r.end))
            return;
        r.pid = pidOf(gpid);
        r.correlation = colInt(st, 4);
        const FlowLinker::Launch* api = flows_.launch(r.pid, r.correlation);
        r.tid = api ? api->tid : r.pid;
        r.rank = rank;
        r.kind = CpuRangeKind::Other;
        r.domain = domain;
        const std::int64_t type = colInt(st, 5);
        auto it = names.find(type);
        if (it == names.end()) {
            std::string label = db_.enumLabel("ENUM_CUPTI_SYNC_TYPE", type);
            it =
                names
                    .emplace(type, trace_.strings.intern(label.empty() ? syncTypeFallbackLabel(type) : label))
                    .first;
        }
        r.name = it->second;
        trace_.cpuRanges.push_back(r);
    });
}

void NsysReader::readNvtx() {
    const char* t = kNvtxTable;
    if (!db_.hasTable(t) || !db_.hasColumn(t, "eventType") || !db_.hasColumn(t, "globalTid"))
        return;
    const std::int64_t mark = db_.enumId("ENUM_NSYS_EVENT_TYPE", "NvtxMark", 34);
    const std::int64_t pushPop = db_.enumId("ENUM_NSYS_EVENT_TYPE", "NvtxPushPopRange", 59);
    const std::int64_t startEnd = db_.enumId("ENUM_NSYS_EVENT_TYPE", "NvtxStartEndRange", 60);
    const std::int64_t domainCreate = db_.enumId("ENUM_NSYS_EVENT_TYPE", "NvtxDomainCreate", 75);
    const std::string text = db_.columnOr(t, "text", "NULL"), textId = db_.columnOr(t, "textId", "NULL");
    const std::string domainId = db_.columnOr(t, "domainId", "NULL");

    auto nameOf = [&](sqlite3_stmt* st, int textCol, int textIdCol) -> StringId {
        if (!colIsNull(st, textCol))
            return trace_.strings.intern(colText(st, textCol));
        return colIsNull(st, textIdCol) ? 0 : nsysString(colInt(st, textIdCol));
    };
    // Domain names are per process: (pid, domainId) -> name.
    std::map<std::pair<std::int64_t, std::int64_t>, StringId> domains;
    forEachRow("SELECT globalTid, " + domainId + ", " + text + ", " + textId +
                   " FROM NVTX_EVENTS WHERE eventType=" + std::to_string(domainCreate),
               [&](sqlite3_stmt* st) {
                   domains[{pidOf(colInt(st, 0)), colInt(st, 1)}] = nameOf(st, 2, 3);
               });

    const std::string sql = "SELECT rowid, start, end, eventType, globalTid, " + text + ", " + textId + ", " +
                            domainId + ", " + db_.columnOr(t, "color", "NULL") + ", " +
                            db_.columnOr(t, "rangeId", "NULL") + " FROM NVTX_EVENTS WHERE eventType IN (" +
                            std::to_string(mark) + "," + std::to_string(pushPop) + "," +
                            std::to_string(startEnd) + ")";
    forEachRow(sql, [&](sqlite3_stmt* st) {
        const std::int64_t gtid = colInt(st, 4);
        const std::int32_t rank = rankOfGlobalId(gtid);
        if (rank < 0)
            return;
        CpuRange r;
        const bool isMark = colInt(st, 3) == mark;
        if (!isMark && colIsNull(st, 2)) {
            SkipCounter(trace_.info.skipped)
                .refuse(colInt(st, 0),
                        "NVTX_EVENTS row " + std::to_string(colInt(st, 0)) + ": range never ended");
            return;
        }
        if (!rowTimes(st, kNvtxTable, 1, isMark ? 1 : 2, r.start, r.end))
            return;
        r.pid = pidOf(gtid);
        r.tid = tidOf(gtid);
        r.rank = rank;
        r.kind = CpuRangeKind::Nvtx;
        r.name = nameOf(st, 5, 6);
        const std::int64_t dom = colInt(st, 7);
        if (dom != 0) {
            auto it = domains.find({r.pid, dom});
            r.domain =
                it != domains.end() ? it->second : trace_.strings.intern("domain " + std::to_string(dom));
        }
        r.color = static_cast<std::uint32_t>(colInt(st, 8));
        r.correlation = colInt(st, 9);
        trace_.cpuRanges.push_back(r);
    });
}

void NsysReader::readGpuInfo() {
    std::map<std::int64_t, std::pair<std::string, std::string>> gpus; // device id -> (name, uuid)
    if (db_.hasColumn("TARGET_INFO_GPU", "id")) {
        forEachRow("SELECT id, " + db_.columnOr("TARGET_INFO_GPU", "name", "NULL") + ", " +
                       db_.columnOr("TARGET_INFO_GPU", "uuid", "NULL") + " FROM TARGET_INFO_GPU",
                   [&](sqlite3_stmt* st) {
                       gpus[colInt(st, 0)] = {std::string(colText(st, 1)), std::string(colText(st, 2))};
                   });
    } else if (db_.hasTable("TARGET_INFO_CUDA_DEVICE")) {
        const char* t = "TARGET_INFO_CUDA_DEVICE";
        const std::string id = db_.hasColumn(t, "cudaId") ? "cudaId" : db_.columnOr(t, "id", "NULL");
        forEachRow("SELECT " + id + ", " + db_.columnOr(t, "name", "NULL") + ", " +
                       db_.columnOr(t, "uuid", "NULL") + " FROM " + t,
                   [&](sqlite3_stmt* st) {
                       if (!colIsNull(st, 0))
                           gpus[colInt(st, 0)] = {std::string(colText(st, 1)), std::string(colText(st, 2))};
                   });
    }
    for (auto& r : trace_.ranks) {
        // Ascending device ids, as the Kineto importer lists them (gpuNames[i] is the i-th device id).
        auto devices = devicesOfRank_[r.rank];
        std::sort(devices.begin(), devices.end());
        for (auto dev : devices) {
            auto it = gpus.find(dev);
            std::string name = it != gpus.end() && !it->second.first.empty() ? it->second.first
                                                                             : "GPU " + std::to_string(dev);
            r.gpuUuids.push_back(it != gpus.end() ? it->second.second : std::string());
            if (std::find(trace_.info.gpuModels.begin(), trace_.info.gpuModels.end(), name) ==
                trace_.info.gpuModels.end())
                trace_.info.gpuModels.push_back(name);
            r.gpuNames.push_back(std::move(name));
        }
    }
}

void NsysReader::readSystemInfo() {
    const char* t = "TARGET_INFO_SYSTEM_ENV";
    if (!db_.hasColumn(t, "name") || !db_.hasColumn(t, "value"))
        return;
    // Exactly three named hardware/software properties; never an environment variable.
    forEachRow("SELECT name, value FROM TARGET_INFO_SYSTEM_ENV WHERE name IN "
               "('Hostname','NvDriverVersion','CudaDriverVersion')",
               [&](sqlite3_stmt* st) {
                   const std::string_view name = colText(st, 0);
                   const std::string value(colText(st, 1));
                   if (name == "Hostname" && trace_.info.host.empty())
                       trace_.info.host = value;
                   else if (name == "NvDriverVersion" && trace_.info.driverVersion.empty())
                       trace_.info.driverVersion = formatDriverVersion(std::atoll(value.c_str()));
                   else if (name == "CudaDriverVersion" && trace_.info.cudaVersion.empty())
                       trace_.info.cudaVersion = CudaVersionText::fromInteger(std::atoll(value.c_str()));
               });
    for (auto& r : trace_.ranks)
        r.host = trace_.info.host;
}

} // namespace cnp::nsys
