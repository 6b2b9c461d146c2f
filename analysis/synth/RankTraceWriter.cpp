#include "synth/RankTraceWriter.h"

#include "core/InputError.h"

namespace cnp::synth {
namespace {

using namespace cnpt;

constexpr std::uint32_t kMarkerStart = 2, kMarkerEnd = 4; // CUPTI_ACTIVITY_FLAG_MARKER_START / _END

} // namespace

RankTraceWriter::RankTraceWriter(const std::string& path, const RankIdentity& id,
                                 const std::vector<std::pair<std::string, std::string>>& header,
                                 const std::string& gpuName, std::uint64_t gpuMemoryBytes, SplitMix64& rng)
    : id_(id), device_(static_cast<std::uint32_t>(id.localRank)) {
    if (!out_.open(path))
        throw InputError(path, "cannot create the rank file: " + out_.error());
    auto kv = header;
    kv.emplace_back(key::kPid, std::to_string(id.pid));
    kv.emplace_back(key::kRank, std::to_string(id.rank));
    kv.emplace_back(key::kLocalRank, std::to_string(id.localRank));
    kv.emplace_back(key::kWorldSize, std::to_string(id.worldSize));
    kv.emplace_back(key::kHost, "synth-node" + std::to_string(id.node));
    out_.writeHeader(kv);

    DeviceRecord d{};
    d.globalMemoryBytes = gpuMemoryBytes;
    d.id = device_;
    d.name = out_.intern(gpuName);
    for (auto& b : d.uuid)
        b = static_cast<std::uint8_t>(rng.next());
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.multiprocessors = 132;
    out_.add(RecordType::Device, d);
    out_.add(RecordType::Context, ContextRecord{context_, device_, 0});
    check();
}

void RankTraceWriter::api(Ns start, Ns end, std::uint32_t correlation, std::uint32_t tid, std::uint32_t name,
                          std::uint32_t cbid) {
    ApiRecord a{};
    a.start = raw(start);
    a.end = raw(end);
    a.correlation = correlation;
    a.pid = static_cast<std::uint32_t>(id_.pid);
    a.tid = tid;
    a.cbid = cbid;
    a.name = name;
    a.domain = ApiDomain::Runtime;
    out_.add(RecordType::Api, a);
}

void RankTraceWriter::kernel(Ns start, Ns end, std::uint32_t correlation, std::uint32_t stream,
                             std::uint32_t name, int gridX, int blockX) {
    KernelRecord k{};
    k.start = raw(start);
    k.end = raw(end);
    k.gridId = correlation;
    k.correlation = correlation;
    k.device = device_;
    k.context = context_;
    k.stream = stream;
    k.grid[0] = gridX;
    k.grid[1] = k.grid[2] = 1;
    k.block[0] = blockX;
    k.block[1] = k.block[2] = 1;
    k.registers = 128;
    k.name = name;
    out_.add(RecordType::Kernel, k);
}

void RankTraceWriter::memcpyHtoD(Ns start, Ns end, std::uint32_t correlation, std::uint32_t stream,
                                 std::uint64_t bytes) {
    MemcpyRecord m{};
    m.start = raw(start);
    m.end = raw(end);
    m.bytes = bytes;
    m.correlation = correlation;
    m.device = m.srcDevice = m.dstDevice = device_;
    m.context = context_;
    m.stream = stream;
    m.copyKind = 1; // HtoD
    m.srcKind = 2;  // pinned
    m.dstKind = 3;  // device
    out_.add(RecordType::Memcpy, m);
}

std::uint32_t RankTraceWriter::rangeStart(Ns at, std::uint32_t tid, std::uint32_t name) {
    MarkerRecord m{};
    m.timestamp = raw(at);
    m.id = ++markerId_;
    m.flags = kMarkerStart;
    m.pid = static_cast<std::uint32_t>(id_.pid);
    m.tid = tid;
    m.name = name;
    out_.add(RecordType::Marker, m);
    return m.id;
}

void RankTraceWriter::rangeEnd(Ns at, std::uint32_t id, std::uint32_t tid) {
    MarkerRecord m{};
    m.timestamp = raw(at);
    m.id = id;
    m.flags = kMarkerEnd;
    m.pid = static_cast<std::uint32_t>(id_.pid);
    m.tid = tid;
    out_.add(RecordType::Marker, m);
}

void RankTraceWriter::clockPair(Ns at, Ns bracketNs, SplitMix64& rng, Ns realtimeErrorNs) {
    const Ns before = static_cast<Ns>(rng.uniform() * static_cast<double>(bracketNs));
    ClockPairRecord c{};
    c.realtimeNs = static_cast<std::uint64_t>(at + drifted(at) + realtimeErrorNs);
    c.cuptiBefore = raw(at - before);
    c.cuptiAfter = raw(at - before + bracketNs);
    out_.add(RecordType::ClockPair, c);
}

void RankTraceWriter::finish(Ns endRealtimeNs) {
    out_.writeHeader({{"end_realtime_ns", std::to_string(endRealtimeNs)}, {"dropped_records", "0"}});
    out_.close();
    check();
}

void RankTraceWriter::check() const {
    if (!out_.error().empty())
        throw InputError(out_.path(), "cannot write the rank file: " + out_.error());
}

} // namespace cnp::synth
