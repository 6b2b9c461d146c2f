#include "import/cnpt/CnptConverter.h"

#include "EnvAllowList.h"
#include "core/InputError.h"
#include "core/MemoryKindNames.h"
#include "core/NameBound.h"
#include "core/PhysicalBounds.h"
#include "core/TimeBounds.h"
#include "import/common/CudaVersionText.h"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace cnp {

using namespace cnpt;

namespace {

// Vectors are reserved from the first pass's record counts, but no more than this many elements up
// front: a crafted file's counts must not allocate gigabytes before a record is checked.
constexpr std::size_t kMaxReserve = 1u << 22;

std::size_t reserveCount(std::size_t n) {
    return std::min(n, kMaxReserve);
}

// a + b without wrapping (u64 counts from the file).
std::uint64_t saturatingAddU64(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max()
                                                             : a + b;
}

// A byte count from the file as a non-negative int64, clamped.
std::int64_t byteCount(std::uint64_t b) {
    return static_cast<std::int64_t>(std::min<std::uint64_t>(b, std::numeric_limits<std::int64_t>::max()));
}

// Names longer than the string table keeps are not demangled (the demangler is recursive).
std::string demangle(const std::string& name) {
    if (name.size() < 2 || name[0] != '_' || name[1] != 'Z' || name.size() > kMaxNameBytes)
        return name;
    int status = 0;
    char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    std::string out = (status == 0 && d) ? std::string(d) : name;
    std::free(d);
    return out;
}

std::string uuidText(const std::uint8_t* u) {
    char s[64];
    std::snprintf(s, sizeof s, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                  u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                  u[14], u[15]);
    return s;
}

// A positive number within the quantity's physical range (core/PhysicalBounds.h), else 0 (= unknown):
// header values are untrusted text, and a 1 KB header stating 1e308 tokens per step once hung reports.
double toPositive(const std::string& s, const PhysicalBound& bound) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0' && v > 0 && bound.holds(v) ? v : 0;
}

int toInt(const std::string& s, int fallback) {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    return (s.empty() || !end || *end) ? fallback : static_cast<int>(v);
}

} // namespace

CnptConverter::CnptConverter(const CnptReader& reader, const std::string& path, const ProgressSink& sink)
    : r_(reader), path_(path), sink_(sink), census_(takeCensus(reader)), clock_(census_.pairs) {}

// Pass 1: clock pairs (needed before any time is converted) and the record count for progress.
CnptConverter::Census CnptConverter::takeCensus(const CnptReader& reader) {
    Census c;
    if (reader.header().empty())
        return c; // run() refuses the file
    reader.forEachRecord([&](RecordType type, const unsigned char* body, std::uint16_t size, std::int64_t) {
        ++c.total;
        ++c.counts[static_cast<unsigned>(type) & 15u];
        if (type == RecordType::ClockPair)
            c.pairs.push_back(CnptReader::decode<ClockPairRecord>(body, size));
    });
    return c;
}

TraceData CnptConverter::run() {
    if (r_.header().empty())
        throw InputError(path_, "cut short before its header; nothing to read", r_.stopOffset());
    readHeader();
    reserve();
    rank_.clockOffsetNs = clock_.offsetNs();
    rank_.clockSkewEstimateNs = clock_.skewEstimateNs();
    const std::size_t strings = r_.strings().size();
    plain_.assign(strings, 0);
    demangled_.assign(strings, 0);
    havePlain_.assign(strings, false);
    haveDemangled_.assign(strings, false);
    memAllocName_ = t_.strings.intern("GPU memory allocated (bytes)");

    r_.forEachRecord(
        [&](RecordType type, const unsigned char* body, std::uint16_t size, std::int64_t offset) {
            if ((++seen_ & 0xFFFF) == 0) {
                sink_.report(static_cast<double>(seen_) / static_cast<double>(census_.total));
                sink_.checkCancel();
            }
            dispatch(type, body, size, offset);
        });

    // Launch flows and the threads of synchronisation waits come from the API calls.
    flows_.linkInto(t_.flows);
    addSyncWaits();
    applyColours();
    reportSkips();
    t_.ranks.push_back(std::move(rank_));
    sink_.report(1.0);
    return std::move(t_);
}

void CnptConverter::readHeader() {
    TraceData& t = t_;
    t.info.sourceFormat = "cnpt";
    t.info.sourceFiles = {path_};
    t.info.name = r_.headerValue(key::kRun);
    t.info.config = r_.headerValue(key::kConfig);
    t.info.host = r_.headerValue(key::kHost);
    t.info.containerImage = r_.headerValue(key::kImage);
    t.info.driverVersion = CudaVersionText::fromText(r_.headerValue(key::kDriverVersion));
    t.info.cudaVersion = CudaVersionText::fromText(r_.headerValue(key::kCudaVersion));
    t.info.cuptiVersion = r_.headerValue(key::kCuptiVersion);
    const int worldSize = toInt(r_.headerValue(key::kWorldSize), -1);
    // Keys only `cnp synth` writes: a generated file stays flagged synthetic wherever it is ingested.
    t.info.synthetic = r_.headerValue(key::kSynthetic) == "1";
    t.info.tokensPerStep = toPositive(r_.headerValue(key::kTokensPerStep), bounds::kTokensPerStep);
    t.info.flopsPerStep = toPositive(r_.headerValue(key::kFlopsPerStep), bounds::kFlopsPerStep);
    t.info.peakFlops = toPositive(r_.headerValue(key::kPeakFlops), bounds::kPeakFlops);
    t.info.worldSize = worldSize > 0 ? worldSize : 1;
    for (const auto& [k, v] : r_.header())
        if (k.rfind("env.", 0) == 0 && isAllowedEnvName(std::string_view(k).substr(4))) {
            auto kv = std::make_pair(k.substr(4), v);
            if (std::find(t.info.env.begin(), t.info.env.end(), kv) == t.info.env.end())
                t.info.env.push_back(std::move(kv));
        }

    const int headerRank = toInt(r_.headerValue(key::kRank), -1);
    rank_.rank = headerRank >= 0 ? headerRank : 0;
    rank_.rankClaimed = headerRank >= 0;
    rank_.localRank = toInt(r_.headerValue(key::kLocalRank), -1);
    rank_.host = t.info.host;
    rank_.pid = toInt(r_.headerValue(key::kPid), 0);
    rank_.sourceFile = path_;
}

void CnptConverter::reserve() {
    const Census& c = census_;
    t_.kernels.reserve(reserveCount(c.count(RecordType::Kernel)));
    t_.memcpys.reserve(reserveCount(c.count(RecordType::Memcpy)));
    t_.memsets.reserve(reserveCount(c.count(RecordType::Memset)));
    t_.apiCalls.reserve(reserveCount(c.count(RecordType::Api)));
    const std::size_t gpu =
        reserveCount(c.count(RecordType::Kernel) + c.count(RecordType::Memcpy) + c.count(RecordType::Memset));
    t_.flows.reserve(gpu);
    t_.cpuRanges.reserve(
        reserveCount(c.count(RecordType::Marker) / 2 + c.count(RecordType::Synchronization)));
    t_.counters.reserve(reserveCount(c.count(RecordType::Memory)));
    flows_.reserve(reserveCount(c.count(RecordType::Api)), gpu);
}

void CnptConverter::dispatch(RecordType type, Body body, std::uint16_t size, std::int64_t offset) {
    switch (type) {
    case RecordType::Kernel:
        return onKernel(body, size, offset);
    case RecordType::Memcpy:
        return onMemcpy(body, size, offset);
    case RecordType::Memset:
        return onMemset(body, size, offset);
    case RecordType::Api:
        return onApi(body, size, offset);
    case RecordType::Marker:
        return onMarker(body, size, offset);
    case RecordType::MarkerData:
        return onMarkerData(body, size);
    case RecordType::Synchronization:
        return onSynchronization(body, size, offset);
    case RecordType::Overhead:
        return onOverhead(body, size, offset);
    case RecordType::Memory:
        return onMemory(body, size, offset);
    case RecordType::Device:
        return onDevice(body, size);
    case RecordType::Dropped:
        return onDropped(body, size);
    case RecordType::Context:
    case RecordType::Name:
    case RecordType::ClockPair:
        return;
    }
    // Unknown record types of later format versions are skipped silently (forward compatibility).
}

bool CnptConverter::span(std::uint64_t start, std::uint64_t end, std::int64_t offset, const char* what, Ns& s,
                         Ns& e) {
    // The order is checked on the raw CUPTI times (unsigned), before they are mapped.
    if (end < start) {
        skips_.refuse(offset, SkipCounter::reason(SkipCounter::SpanFault::EndsBeforeStart, what));
        return false;
    }
    const auto a = clock_.toRealtime(start), b = clock_.toRealtime(end);
    if (!a || !b) {
        skips_.refuse(offset, SkipCounter::reason(SkipCounter::SpanFault::OutOfRange, what));
        return false;
    }
    s = *a;
    e = *b;
    return true;
}

StringId CnptConverter::str(std::uint32_t id) {
    if (id == 0 || id >= plain_.size())
        return 0;
    if (!havePlain_[id]) {
        plain_[id] = t_.strings.intern(r_.string(id));
        havePlain_[id] = true;
    }
    return plain_[id];
}

StringId CnptConverter::kernelName(std::uint32_t id) {
    if (id == 0 || id >= demangled_.size())
        return t_.strings.intern("(unnamed kernel)");
    if (!haveDemangled_[id]) {
        demangled_[id] = t_.strings.intern(demangle(r_.string(id)));
        haveDemangled_[id] = true;
    }
    return demangled_[id];
}

void CnptConverter::onKernel(Body body, std::uint16_t size, std::int64_t offset) {
    const auto k = CnptReader::decode<KernelRecord>(body, size);
    KernelEvent e;
    if (!span(k.start, k.end, offset, "kernel", e.start, e.end))
        return;
    copyGpuFields(k, e);
    std::copy(std::begin(k.grid), std::end(k.grid), e.grid);
    std::copy(std::begin(k.block), std::end(k.block), e.block);
    e.registers = static_cast<std::int32_t>(k.registers);
    e.staticSmem = k.staticSmem;
    e.dynamicSmem = k.dynamicSmem;
    e.name = kernelName(k.name);
    addGpuActivity(t_.kernels, e);
}

void CnptConverter::onMemcpy(Body body, std::uint16_t size, std::int64_t offset) {
    const auto m = CnptReader::decode<MemcpyRecord>(body, size);
    MemcpyEvent e;
    if (!span(m.start, m.end, offset, "memcpy", e.start, e.end))
        return;
    copyGpuFields(m, e);
    e.bytes = byteCount(m.bytes);
    e.kind = m.copyKind <= 10 ? static_cast<MemcpyKind>(m.copyKind) : MemcpyKind::Unknown;
    e.srcKind = memoryKindFromCupti(m.srcKind);
    e.dstKind = memoryKindFromCupti(m.dstKind);
    e.name = copyNames_.memcpyId(e.kind, e.srcKind, e.dstKind);
    addGpuActivity(t_.memcpys, e);
}

void CnptConverter::onMemset(Body body, std::uint16_t size, std::int64_t offset) {
    const auto m = CnptReader::decode<MemsetRecord>(body, size);
    MemsetEvent e;
    if (!span(m.start, m.end, offset, "memset", e.start, e.end))
        return;
    copyGpuFields(m, e);
    e.bytes = byteCount(m.bytes);
    e.value = static_cast<std::int32_t>(m.value);
    e.memKind = memoryKindFromCupti(m.memoryKind);
    e.name = copyNames_.memsetId(e.memKind);
    addGpuActivity(t_.memsets, e);
}

void CnptConverter::onApi(Body body, std::uint16_t size, std::int64_t offset) {
    const auto a = CnptReader::decode<ApiRecord>(body, size);
    ApiCall e;
    if (!span(a.start, a.end, offset, "API call", e.start, e.end))
        return;
    e.correlation = a.correlation;
    e.pid = a.pid;
    e.tid = a.tid;
    e.rank = rank_.rank;
    e.kind = a.domain == ApiDomain::Driver ? ApiKind::Driver : ApiKind::Runtime;
    e.name = str(a.name);
    flows_.addLaunch(0, e);
    t_.apiCalls.push_back(e);
}

void CnptConverter::addNvtx(Ns start, Ns end, std::uint32_t pid, std::uint32_t tid, std::uint32_t id,
                            std::uint32_t name, std::uint32_t domain) {
    CpuRange c;
    c.start = start;
    c.end = end;
    c.pid = pid;
    c.tid = tid;
    c.correlation = id;
    c.rank = rank_.rank;
    c.kind = CpuRangeKind::Nvtx;
    c.name = str(name);
    c.domain = str(domain);
    rangeById_[id] = t_.cpuRanges.size();
    t_.cpuRanges.push_back(c);
}

void CnptConverter::onMarker(Body body, std::uint16_t size, std::int64_t offset) {
    const auto m = CnptReader::decode<MarkerRecord>(body, size);
    Ns s = 0, e = 0;
    if (m.flags & 2u) { // range start
        open_[m.id] = OpenRange{m.timestamp, m.pid, m.tid, m.name, m.domain};
    } else if (m.flags & 4u) { // range end
        auto it = open_.find(m.id);
        if (it == open_.end())
            return; // its start lies before the capture window or the file's beginning
        const OpenRange o = it->second;
        open_.erase(it);
        if (span(o.start, std::max(m.timestamp, o.start), offset, "NVTX range", s, e))
            addNvtx(s, e, o.pid, o.tid, m.id, o.name, o.domain);
    } else if (m.flags & 1u) { // instantaneous mark
        if (span(m.timestamp, m.timestamp, offset, "NVTX mark", s, e))
            addNvtx(s, e, m.pid, m.tid, m.id, m.name, m.domain);
    }
}

void CnptConverter::onMarkerData(Body body, std::uint16_t size) {
    const auto d = CnptReader::decode<MarkerDataRecord>(body, size);
    if (d.flags & 2u) // CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB
        colourById_[d.id] = d.color;
}

void CnptConverter::onSynchronization(Body body, std::uint16_t size, std::int64_t offset) {
    const auto s = CnptReader::decode<SynchronizationRecord>(body, size);
    syncs_.push_back({s.start, s.end, s.correlation, s.type, offset});
}

void CnptConverter::onOverhead(Body body, std::uint16_t size, std::int64_t offset) {
    const auto o = CnptReader::decode<OverheadRecord>(body, size);
    if (o.objectKind != 2) // thread-attributed overhead only
        return;
    static const char* kinds[] = {
        "unknown",          "CUPTI buffer flush",    "CUPTI instrumentation", "CUPTI resource",
        "module loading",   "lazy function loading", "command buffer full",   "activity buffer request",
        "UVM activity init"};
    const unsigned k = o.overheadKind == 1 ? 0 : (o.overheadKind >> 16);
    CpuRange c;
    if (!span(o.start, o.end, offset, "CUPTI overhead", c.start, c.end))
        return;
    c.pid = o.objectA;
    c.tid = o.objectB;
    c.rank = rank_.rank;
    c.kind = CpuRangeKind::Other;
    c.name = t_.strings.intern(o.overheadKind == 1 ? std::string("overhead: driver compiler")
                                                   : std::string("overhead: ") +
                                                         (k < std::size(kinds) ? kinds[k] : "unknown"));
    t_.cpuRanges.push_back(c);
}

void CnptConverter::onMemory(Body body, std::uint16_t size, std::int64_t offset) {
    const auto m = CnptReader::decode<MemoryRecord>(body, size);
    auto& cur = allocated_[m.device];
    if (m.operation == 1) { // allocation
        cur = saturatingAdd(cur, byteCount(m.bytes));
        liveAllocations_[m.address] = {m.device, m.bytes};
    } else if (m.operation == 2) { // release: CUPTI reports the bytes freed
        auto it = liveAllocations_.find(m.address);
        const std::uint64_t b = m.bytes ? m.bytes : (it != liveAllocations_.end() ? it->second.second : 0);
        cur = saturatingAdd(cur, -byteCount(b));
        if (it != liveAllocations_.end())
            liveAllocations_.erase(it);
    } else {
        return;
    }
    CounterSample c;
    Ns ignored = 0;
    if (!span(m.timestamp, m.timestamp, offset, "memory record", c.ts, ignored))
        return;
    c.value = static_cast<double>(cur);
    c.rank = rank_.rank;
    c.device = static_cast<std::int32_t>(m.device);
    c.name = memAllocName_;
    t_.counters.push_back(c);
}

void CnptConverter::onDevice(Body body, std::uint16_t size) {
    const auto d = CnptReader::decode<DeviceRecord>(body, size);
    const std::string name = r_.string(d.name);
    rank_.gpuNames.push_back(name);
    rank_.gpuUuids.push_back(uuidText(d.uuid));
    auto& models = t_.info.gpuModels;
    if (!name.empty() && std::find(models.begin(), models.end(), name) == models.end())
        models.push_back(name);
}

void CnptConverter::onDropped(Body body, std::uint16_t size) {
    dropped_ = saturatingAddU64(dropped_, CnptReader::decode<DroppedRecord>(body, size).count);
}

// Synchronisation waits run on the thread of the API call that waited (same correlation id).
void CnptConverter::addSyncWaits() {
    static const char* syncNames[] = {"CUDA sync (unknown)", "CUDA sync: event",
                                      "CUDA sync: stream wait event", "CUDA sync: stream",
                                      "CUDA sync: context"};
    for (const auto& s : syncs_) {
        CpuRange c;
        if (!span(s.start, s.end, s.offset, "synchronisation", c.start, c.end))
            continue;
        c.correlation = s.correlation;
        c.rank = rank_.rank;
        c.kind = CpuRangeKind::Other;
        c.name = t_.strings.intern(s.type < std::size(syncNames) ? syncNames[s.type] : syncNames[0]);
        if (const FlowLinker::Launch* api = flows_.launch(0, s.correlation)) {
            c.pid = api->pid;
            c.tid = api->tid;
        }
        t_.cpuRanges.push_back(c);
    }
}

void CnptConverter::applyColours() {
    for (const auto& [id, colour] : colourById_) {
        auto it = rangeById_.find(id);
        if (it != rangeById_.end())
            t_.cpuRanges[it->second].color = colour;
    }
}

void CnptConverter::reportSkips() {
    skips_.refuseMany(open_.size(), -1, "NVTX range without its end (process ended inside it)");
    skips_.refuseMany(r_.badRecords(), r_.firstBadRecord(), "record runs past the end of its chunk");
    skips_.refuseMany(dropped_, -1,
                      "CUPTI dropped " + std::to_string(dropped_) + " activity records (buffers full)");
    if (r_.stopOffset() >= 0)
        skips_.refuse(r_.stopOffset(),
                      std::string(r_.stopReason()) + ": the file's last " +
                          std::to_string(r_.fileSize() - static_cast<std::size_t>(r_.stopOffset())) +
                          " bytes were ignored");
    if (!clock_.valid())
        skips_.refuse(-1, "no clock pair: times are CUPTI timestamps, not aligned to the realtime clock");
}

} // namespace cnp
