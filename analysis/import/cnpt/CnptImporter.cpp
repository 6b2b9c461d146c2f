#include "import/cnpt/CnptImporter.h"

#include "EnvAllowList.h"
#include "core/InputError.h"
#include "core/MemoryKindNames.h"
#include "core/NameBound.h"
#include "core/TimeBounds.h"
#include "import/cnpt/CnptClockModel.h"
#include "import/common/ByteSource.h"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

namespace cnp {

namespace {

using namespace cnpt;

// A gzip file's content for CnptReader::fromStream: inflated as it is read, one pass per open.
class GzipInput : public ByteInput {
public:
    explicit GzipInput(const std::string& path) : source_(path) {}
    std::size_t read(char* out, std::size_t capacity) override { return source_.read(out, capacity); }

private:
    ByteSource source_;
};

// Vectors are reserved from the first pass's record counts, but no more than this many elements up
// front: a crafted file's counts must not allocate gigabytes before a record is checked.
constexpr std::size_t kMaxReserve = 1u << 22;

std::size_t reserveCount(std::size_t n) {
    return std::min(n, kMaxReserve);
}

// Adds `n` skipped events (the first with `offset` and `reason` when none were skipped yet).
void addSkipped(SkipReport& s, std::uint64_t n, std::int64_t offset, const std::string& reason) {
    if (n == 0)
        return;
    s.add(offset, reason);
    const std::uint64_t more = std::min<std::uint64_t>(n - 1, std::numeric_limits<std::int64_t>::max());
    s.count = saturatingAdd(s.count, static_cast<std::int64_t>(more));
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

// "13000" -> "13.0", "12040" -> "12.4" (CUDA's version integers); other text unchanged.
std::string cudaVersionText(const std::string& v) {
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || !end || *end || n < 1000)
        return v;
    return std::to_string(n / 1000) + "." + std::to_string((n % 1000) / 10);
}

// A finite positive number, else 0 (= unknown): header values are untrusted text.
double toPositive(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0' && std::isfinite(v) && v > 0 ? v : 0;
}

int toInt(const std::string& s, int fallback) {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    return (s.empty() || !end || *end) ? fallback : static_cast<int>(v);
}

struct OpenRange {
    std::uint64_t start = 0;
    std::uint32_t pid = 0, tid = 0, name = 0, domain = 0;
};

} // namespace

bool CnptImporter::canRead(const std::string&, std::string_view head) const {
    return head.size() >= sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

TraceData CnptImporter::read(const std::string& path, const ProgressSink& sink) const {
    unsigned char magic[2] = {0, 0};
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        const std::size_t n = std::fread(magic, 1, 2, f);
        std::fclose(f);
        if (n < 2)
            magic[0] = 0;
    }
    const bool gzip = magic[0] == 0x1f && magic[1] == 0x8b;
    try {
        // Plain files are mapped; gzip ones are streamed (inflated once per pass, never held whole).
        const CnptReader reader =
            gzip ? CnptReader::fromStream([path] { return std::make_unique<GzipInput>(path); })
                 : CnptReader(path);
        return convert(reader, path, sink);
    } catch (const FormatError& e) {
        throw InputError(path, e.what(), e.offset());
    }
}

TraceData CnptImporter::convert(const CnptReader& r, const std::string& path, const ProgressSink& sink) {
    if (r.header().empty())
        throw InputError(path, "cut short before its header; nothing to read", r.stopOffset());
    TraceData t;
    t.info.sourceFormat = "cnpt";
    t.info.sourceFiles = {path};
    t.info.name = r.headerValue(key::kRun);
    t.info.config = r.headerValue(key::kConfig);
    t.info.host = r.headerValue(key::kHost);
    t.info.containerImage = r.headerValue(key::kImage);
    t.info.driverVersion = cudaVersionText(r.headerValue(key::kDriverVersion));
    t.info.cudaVersion = cudaVersionText(r.headerValue(key::kCudaVersion));
    t.info.cuptiVersion = r.headerValue(key::kCuptiVersion);
    const int worldSize = toInt(r.headerValue(key::kWorldSize), -1);
    // Keys only `cnp synth` writes: a generated file stays flagged synthetic wherever it is ingested.
    t.info.synthetic = r.headerValue(key::kSynthetic) == "1";
    t.info.tokensPerStep = toPositive(r.headerValue(key::kTokensPerStep));
    t.info.flopsPerStep = toPositive(r.headerValue(key::kFlopsPerStep));
    t.info.peakFlops = toPositive(r.headerValue(key::kPeakFlops));
    t.info.worldSize = worldSize > 0 ? worldSize : 1;
    for (const auto& [k, v] : r.header())
        if (k.rfind("env.", 0) == 0 && isAllowedEnvName(std::string_view(k).substr(4))) {
            auto kv = std::make_pair(k.substr(4), v);
            if (std::find(t.info.env.begin(), t.info.env.end(), kv) == t.info.env.end())
                t.info.env.push_back(std::move(kv));
        }

    RankInfo rank;
    const int headerRank = toInt(r.headerValue(key::kRank), -1);
    rank.rank = headerRank >= 0 ? headerRank : 0;
    rank.localRank = toInt(r.headerValue(key::kLocalRank), -1);
    rank.host = t.info.host;
    rank.pid = toInt(r.headerValue(key::kPid), 0);
    rank.sourceFile = path;
    const std::int32_t rk = rank.rank;

    // Pass 1: clock pairs (needed before any time is converted) and the record count for progress.
    std::vector<ClockPairRecord> pairs;
    std::size_t total = 0;
    std::size_t counts[16] = {};
    r.forEachRecord([&](RecordType type, const unsigned char* body, std::uint16_t size, std::int64_t) {
        ++total;
        ++counts[static_cast<unsigned>(type) & 15u];
        if (type == RecordType::ClockPair)
            pairs.push_back(CnptReader::decode<ClockPairRecord>(body, size));
    });
    auto count = [&](RecordType t) { return counts[static_cast<unsigned>(t)]; };
    t.kernels.reserve(reserveCount(count(RecordType::Kernel)));
    t.memcpys.reserve(reserveCount(count(RecordType::Memcpy)));
    t.memsets.reserve(reserveCount(count(RecordType::Memset)));
    t.apiCalls.reserve(reserveCount(count(RecordType::Api)));
    t.flows.reserve(
        reserveCount(count(RecordType::Kernel) + count(RecordType::Memcpy) + count(RecordType::Memset)));
    t.cpuRanges.reserve(reserveCount(count(RecordType::Marker) / 2 + count(RecordType::Synchronization)));
    t.counters.reserve(reserveCount(count(RecordType::Memory)));
    const CnptClockModel clock(pairs);
    rank.clockOffsetNs = clock.offsetNs();
    rank.clockSkewEstimateNs = clock.skewEstimateNs();
    // [start, end] of a record on the realtime clock; false (the record skipped and counted) when it
    // ends before it starts or either time is out of the sane range.
    auto span = [&](std::uint64_t start, std::uint64_t end, std::int64_t offset, const char* what, Ns& s,
                    Ns& e) {
        if (end < start) {
            t.info.skipped.add(offset, std::string(what) + " ends before it starts");
            return false;
        }
        const auto a = clock.toRealtime(start), b = clock.toRealtime(end);
        if (!a || !b) {
            t.info.skipped.add(offset, std::string(what) + " time out of range");
            return false;
        }
        s = *a;
        e = *b;
        return true;
    };

    // File string ids -> trace string ids, interned on first use (kernel names demangled).
    std::vector<StringId> plain(r.strings().size(), 0), demangled(r.strings().size(), 0);
    std::vector<bool> havePlain(r.strings().size(), false), haveDemangled(r.strings().size(), false);
    auto str = [&](std::uint32_t id) -> StringId {
        if (id == 0 || id >= plain.size())
            return 0;
        if (!havePlain[id]) {
            plain[id] = t.strings.intern(r.string(id));
            havePlain[id] = true;
        }
        return plain[id];
    };
    auto kernelName = [&](std::uint32_t id) -> StringId {
        if (id == 0 || id >= demangled.size())
            return t.strings.intern("(unnamed kernel)");
        if (!haveDemangled[id]) {
            demangled[id] = t.strings.intern(demangle(r.string(id)));
            haveDemangled[id] = true;
        }
        return demangled[id];
    };

    std::unordered_map<std::uint32_t, std::size_t> apiByCorrelation; // correlation -> index in t.apiCalls
    struct Pending {
        std::uint32_t correlation;
        Ns gpuTs;
        std::int64_t stream;
    };
    std::vector<Pending> gpuLaunches;
    gpuLaunches.reserve(t.flows.capacity());
    apiByCorrelation.reserve(reserveCount(count(RecordType::Api)));
    std::map<std::uint32_t, StringId> copyNames; // (kind, src, dst) or memory kind -> name
    std::unordered_map<std::uint32_t, OpenRange> open;
    std::unordered_map<std::uint32_t, std::size_t> rangeById; // marker id -> index in t.cpuRanges
    std::unordered_map<std::uint32_t, std::uint32_t> colourById;
    std::map<std::uint32_t, std::int64_t> allocated; // device -> bytes currently allocated
    std::map<std::uint64_t, std::pair<std::uint32_t, std::uint64_t>>
        liveAllocations; // address -> device, bytes
    struct SyncWait {
        std::uint64_t start, end;
        std::uint32_t correlation, type;
        std::int64_t offset;
    };
    std::vector<SyncWait> syncs;
    std::uint64_t dropped = 0;
    std::size_t seen = 0;
    const StringId memAllocName = t.strings.intern("GPU memory allocated (bytes)");

    r.forEachRecord([&](RecordType type, const unsigned char* body, std::uint16_t size, std::int64_t offset) {
        if ((++seen & 0xFFFF) == 0) {
            sink.report(static_cast<double>(seen) / static_cast<double>(total));
            sink.checkCancel();
        }
        switch (type) {
        case RecordType::Kernel: {
            const auto k = CnptReader::decode<KernelRecord>(body, size);
            KernelEvent e;
            if (!span(k.start, k.end, offset, "kernel", e.start, e.end))
                return;
            e.correlation = k.correlation;
            e.stream = k.stream;
            e.rank = rk;
            e.device = static_cast<std::int32_t>(k.device);
            std::copy(std::begin(k.grid), std::end(k.grid), e.grid);
            std::copy(std::begin(k.block), std::end(k.block), e.block);
            e.registers = static_cast<std::int32_t>(k.registers);
            e.staticSmem = k.staticSmem;
            e.dynamicSmem = k.dynamicSmem;
            e.name = kernelName(k.name);
            t.kernels.push_back(e);
            gpuLaunches.push_back({k.correlation, e.start, e.stream});
            return;
        }
        case RecordType::Memcpy: {
            const auto m = CnptReader::decode<MemcpyRecord>(body, size);
            MemcpyEvent e;
            if (!span(m.start, m.end, offset, "memcpy", e.start, e.end))
                return;
            e.correlation = m.correlation;
            e.stream = m.stream;
            e.bytes = byteCount(m.bytes);
            e.rank = rk;
            e.device = static_cast<std::int32_t>(m.device);
            e.kind = m.copyKind <= 10 ? static_cast<MemcpyKind>(m.copyKind) : MemcpyKind::Unknown;
            e.srcKind = memoryKindFromCupti(m.srcKind);
            e.dstKind = memoryKindFromCupti(m.dstKind);
            const std::uint32_t key =
                (1u << 24) | (std::uint32_t(m.copyKind) << 16) | (std::uint32_t(m.srcKind) << 8) | m.dstKind;
            auto [nameIt, isNew] = copyNames.emplace(key, 0);
            if (isNew)
                nameIt->second =
                    t.strings.intern(std::string("Memcpy ") + toString(e.kind) + " (" +
                                     memoryKindLabel(e.srcKind) + " -> " + memoryKindLabel(e.dstKind) + ")");
            e.name = nameIt->second;
            t.memcpys.push_back(e);
            gpuLaunches.push_back({m.correlation, e.start, e.stream});
            return;
        }
        case RecordType::Memset: {
            const auto m = CnptReader::decode<MemsetRecord>(body, size);
            MemsetEvent e;
            if (!span(m.start, m.end, offset, "memset", e.start, e.end))
                return;
            e.correlation = m.correlation;
            e.stream = m.stream;
            e.bytes = byteCount(m.bytes);
            e.rank = rk;
            e.device = static_cast<std::int32_t>(m.device);
            e.value = static_cast<std::int32_t>(m.value);
            e.memKind = memoryKindFromCupti(m.memoryKind);
            auto [nameIt, isNew] = copyNames.emplace(std::uint32_t(m.memoryKind), 0);
            if (isNew)
                nameIt->second = t.strings.intern(std::string("Memset (") + memoryKindLabel(e.memKind) + ")");
            e.name = nameIt->second;
            t.memsets.push_back(e);
            gpuLaunches.push_back({m.correlation, e.start, e.stream});
            return;
        }
        case RecordType::Api: {
            const auto a = CnptReader::decode<ApiRecord>(body, size);
            ApiCall e;
            if (!span(a.start, a.end, offset, "API call", e.start, e.end))
                return;
            e.correlation = a.correlation;
            e.pid = a.pid;
            e.tid = a.tid;
            e.rank = rk;
            e.kind = a.domain == ApiDomain::Driver ? ApiKind::Driver : ApiKind::Runtime;
            e.name = str(a.name);
            // A runtime call and a driver call it made may share a correlation id: the runtime call launched.
            auto [it, inserted] = apiByCorrelation.emplace(a.correlation, t.apiCalls.size());
            if (!inserted && e.kind == ApiKind::Runtime)
                it->second = t.apiCalls.size();
            t.apiCalls.push_back(e);
            return;
        }
        case RecordType::Marker: {
            const auto m = CnptReader::decode<MarkerRecord>(body, size);
            if (m.flags & 2u) { // range start
                open[m.id] = OpenRange{m.timestamp, m.pid, m.tid, m.name, m.domain};
            } else if (m.flags & 4u) { // range end
                auto it = open.find(m.id);
                if (it == open.end())
                    return; // its start lies before the capture window or the file's beginning
                const OpenRange& o = it->second;
                CpuRange c;
                if (!span(o.start, std::max(m.timestamp, o.start), offset, "NVTX range", c.start, c.end)) {
                    open.erase(it);
                    return;
                }
                c.pid = o.pid;
                c.tid = o.tid;
                c.correlation = m.id;
                c.rank = rk;
                c.kind = CpuRangeKind::Nvtx;
                c.name = str(o.name);
                c.domain = str(o.domain);
                rangeById[m.id] = t.cpuRanges.size();
                t.cpuRanges.push_back(c);
                open.erase(it);
            } else if (m.flags & 1u) { // instantaneous mark
                CpuRange c;
                if (!span(m.timestamp, m.timestamp, offset, "NVTX mark", c.start, c.end))
                    return;
                c.pid = m.pid;
                c.tid = m.tid;
                c.correlation = m.id;
                c.rank = rk;
                c.kind = CpuRangeKind::Nvtx;
                c.name = str(m.name);
                c.domain = str(m.domain);
                rangeById[m.id] = t.cpuRanges.size();
                t.cpuRanges.push_back(c);
            }
            return;
        }
        case RecordType::MarkerData: {
            const auto d = CnptReader::decode<MarkerDataRecord>(body, size);
            if (d.flags & 2u) // CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB
                colourById[d.id] = d.color;
            return;
        }
        case RecordType::Synchronization: {
            const auto s = CnptReader::decode<SynchronizationRecord>(body, size);
            syncs.push_back({s.start, s.end, s.correlation, s.type, offset});
            return;
        }
        case RecordType::Overhead: {
            const auto o = CnptReader::decode<OverheadRecord>(body, size);
            if (o.objectKind != 2) // thread-attributed overhead only
                return;
            static const char* kinds[] = {"unknown",
                                          "CUPTI buffer flush",
                                          "CUPTI instrumentation",
                                          "CUPTI resource",
                                          "module loading",
                                          "lazy function loading",
                                          "command buffer full",
                                          "activity buffer request",
                                          "UVM activity init"};
            const unsigned k = o.overheadKind == 1 ? 0 : (o.overheadKind >> 16);
            CpuRange c;
            if (!span(o.start, o.end, offset, "CUPTI overhead", c.start, c.end))
                return;
            c.pid = o.objectA;
            c.tid = o.objectB;
            c.rank = rk;
            c.kind = CpuRangeKind::Other;
            c.name =
                t.strings.intern(o.overheadKind == 1 ? std::string("overhead: driver compiler")
                                                     : std::string("overhead: ") +
                                                           (k < std::size(kinds) ? kinds[k] : "unknown"));
            t.cpuRanges.push_back(c);
            return;
        }
        case RecordType::Memory: {
            const auto m = CnptReader::decode<MemoryRecord>(body, size);
            auto& cur = allocated[m.device];
            if (m.operation == 1) { // allocation
                cur = saturatingAdd(cur, byteCount(m.bytes));
                liveAllocations[m.address] = {m.device, m.bytes};
            } else if (m.operation == 2) { // release: CUPTI reports the bytes freed
                auto it = liveAllocations.find(m.address);
                const std::uint64_t b =
                    m.bytes ? m.bytes : (it != liveAllocations.end() ? it->second.second : 0);
                cur = saturatingAdd(cur, -byteCount(b));
                if (it != liveAllocations.end())
                    liveAllocations.erase(it);
            } else {
                return;
            }
            CounterSample c;
            Ns ignored = 0;
            if (!span(m.timestamp, m.timestamp, offset, "memory record", c.ts, ignored))
                return;
            c.value = static_cast<double>(cur);
            c.rank = rk;
            c.device = static_cast<std::int32_t>(m.device);
            c.name = memAllocName;
            t.counters.push_back(c);
            return;
        }
        case RecordType::Device: {
            const auto d = CnptReader::decode<DeviceRecord>(body, size);
            const std::string name = r.string(d.name);
            rank.gpuNames.push_back(name);
            rank.gpuUuids.push_back(uuidText(d.uuid));
            if (!name.empty() &&
                std::find(t.info.gpuModels.begin(), t.info.gpuModels.end(), name) == t.info.gpuModels.end())
                t.info.gpuModels.push_back(name);
            return;
        }
        case RecordType::Dropped:
            dropped = saturatingAddU64(dropped, CnptReader::decode<DroppedRecord>(body, size).count);
            return;
        case RecordType::Context:
        case RecordType::Name:
        case RecordType::ClockPair:
            return;
        }
        // Unknown record types of later format versions are skipped silently (forward compatibility).
    });

    // Launch flows and the threads of synchronisation waits come from the API calls.
    for (const auto& g : gpuLaunches) {
        auto it = apiByCorrelation.find(g.correlation);
        if (it == apiByCorrelation.end())
            continue;
        const ApiCall& a = t.apiCalls[it->second];
        t.flows.push_back(Flow{g.correlation, rk, a.start, a.tid, g.gpuTs, g.stream});
    }
    static const char* syncNames[] = {"CUDA sync (unknown)", "CUDA sync: event",
                                      "CUDA sync: stream wait event", "CUDA sync: stream",
                                      "CUDA sync: context"};
    for (const auto& s : syncs) {
        CpuRange c;
        if (!span(s.start, s.end, s.offset, "synchronisation", c.start, c.end))
            continue;
        c.correlation = s.correlation;
        c.rank = rk;
        c.kind = CpuRangeKind::Other;
        c.name = t.strings.intern(s.type < std::size(syncNames) ? syncNames[s.type] : syncNames[0]);
        auto it = apiByCorrelation.find(s.correlation);
        if (it != apiByCorrelation.end()) {
            c.pid = t.apiCalls[it->second].pid;
            c.tid = t.apiCalls[it->second].tid;
        }
        t.cpuRanges.push_back(c);
    }
    for (const auto& [id, colour] : colourById) {
        auto it = rangeById.find(id);
        if (it != rangeById.end())
            t.cpuRanges[it->second].color = colour;
    }

    addSkipped(t.info.skipped, open.size(), -1, "NVTX range without its end (process ended inside it)");
    addSkipped(t.info.skipped, r.badRecords(), r.firstBadRecord(), "record runs past the end of its chunk");
    addSkipped(t.info.skipped, dropped, -1,
               "CUPTI dropped " + std::to_string(dropped) + " activity records (buffers full)");
    if (r.stopOffset() >= 0)
        t.info.skipped.add(r.stopOffset(),
                           std::string(r.stopReason()) + ": the file's last " +
                               std::to_string(r.fileSize() - static_cast<std::size_t>(r.stopOffset())) +
                               " bytes were ignored");
    if (!clock.valid())
        t.info.skipped.add(-1,
                           "no clock pair: times are CUPTI timestamps, not aligned to the realtime clock");
    t.ranks.push_back(std::move(rank));
    sink.report(1.0);
    return t;
}

std::unique_ptr<Importer> makeCnptImporter() {
    return std::make_unique<CnptImporter>();
}

} // namespace cnp
