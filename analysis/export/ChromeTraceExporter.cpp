#include "export/ChromeTraceExporter.h"

#include "core/Utf8.h"
#include "export/OutputFile.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace cnp {

namespace {

using JsonWriter = rapidjson::Writer<OutputFile>;

constexpr std::int64_t kPidMask = (1LL << 22) - 1;

void str(JsonWriter& w, std::string_view s) {
    if (isValidUtf8(s)) {
        w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    } else {
        const std::string fixed = repairUtf8(s);
        w.String(fixed.data(), static_cast<rapidjson::SizeType>(fixed.size()));
    }
}

void key(JsonWriter& w, std::string_view k) {
    w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
}

void micros(JsonWriter& w, Ns ns) {
    const std::string s = ChromeTraceExporter::formatMicros(ns);
    w.RawValue(s.data(), s.size(), rapidjson::kNumberType);
}

const char* cpuCategory(CpuRangeKind k) {
    switch (k) {
    case CpuRangeKind::CpuOp:
        return "cpu_op";
    case CpuRangeKind::PythonFunction:
        return "python_function";
    case CpuRangeKind::UserAnnotation:
    case CpuRangeKind::Nvtx:
    case CpuRangeKind::Other:
        return "user_annotation";
    }
    return "user_annotation";
}

// All track bookkeeping for one export: which export pid each (rank, pid) gets and which tid each
// GPU (rank, device, stream) gets. O(ranks + threads + streams) memory.
class TrackMap {
public:
    explicit TrackMap(const TraceData& t) {
        // Processes: the rank's own pid plus every pid seen in its CPU events.
        std::map<std::int32_t, std::set<std::int64_t>> pidsOfRank;
        for (const auto& r : t.ranks)
            rankOsPid_[r.rank] = r.pid;
        for (const auto& a : t.apiCalls) {
            pidsOfRank[a.rank].insert(a.pid);
            threads_.insert({a.rank, a.pid, a.tid});
            pidOfThread_.emplace(std::make_pair(a.rank, a.tid), a.pid);
        }
        for (const auto& c : t.cpuRanges) {
            pidsOfRank[c.rank].insert(c.pid);
            threads_.insert({c.rank, c.pid, c.tid});
            pidOfThread_.emplace(std::make_pair(c.rank, c.tid), c.pid);
        }
        auto ensureRank = [&](std::int32_t rank) {
            if (!rankOsPid_.count(rank) || rankOsPid_[rank] == 0) {
                const auto& pids = pidsOfRank[rank];
                rankOsPid_[rank] = pids.empty() ? 0 : *pids.begin();
            }
        };
        for (const auto& r : t.ranks)
            ensureRank(r.rank);
        auto gpu = [&](std::int32_t rank, std::int32_t device, std::int64_t stream) {
            ensureRank(rank);
            streams_.insert({rank, device, stream});
        };
        for (const auto& k : t.kernels)
            gpu(k.rank, k.device, k.stream);
        for (const auto& m : t.memcpys)
            gpu(m.rank, m.device, m.stream);
        for (const auto& m : t.memsets)
            gpu(m.rank, m.device, m.stream);
        for (const auto& g : t.gpuAnnotations)
            gpu(g.rank, g.device, g.stream);
        for (const auto& c : t.counters)
            ensureRank(c.rank);
        for (const auto& f : t.flows)
            ensureRank(f.rank);
        for (const auto& [rank, pid] : rankOsPid_)
            pidsOfRank[rank].insert(pid);

        // Pids stay as they are unless two ranks share one (containers often run every rank as the
        // same pid); then every pid of rank r becomes ((r+1) << 22) | pid.
        std::map<std::int64_t, std::int32_t> owner;
        for (const auto& [rank, pids] : pidsOfRank)
            for (auto pid : pids) {
                auto [it, fresh] = owner.emplace(pid, rank);
                collide_ = collide_ || (!fresh && it->second != rank);
            }
        std::int64_t i = 0;
        for (const auto& s : streams_)
            gpuTid_[s] = ChromeTraceExporter::kGpuTrackTidBase + i++;
        multiRank_ = rankOsPid_.size() > 1;
    }

    std::int64_t pid(std::int32_t rank, std::int64_t osPid) const {
        return collide_ ? ((static_cast<std::int64_t>(rank) + 1) << 22) | (osPid & kPidMask) : osPid;
    }
    std::int64_t rankPid(std::int32_t rank) const {
        auto it = rankOsPid_.find(rank);
        return pid(rank, it == rankOsPid_.end() ? 0 : it->second);
    }
    std::int64_t osPidOfRank(std::int32_t rank) const {
        auto it = rankOsPid_.find(rank);
        return it == rankOsPid_.end() ? 0 : it->second;
    }
    std::int64_t gpuTid(std::int32_t rank, std::int32_t device, std::int64_t stream) const {
        auto it = gpuTid_.find({rank, device, stream});
        return it == gpuTid_.end() ? ChromeTraceExporter::kGpuTrackTidBase - 1 : it->second;
    }
    // The process a flow's launching thread belongs to (the rank's process when unknown).
    std::int64_t pidOfThread(std::int32_t rank, std::int64_t tid) const {
        auto it = pidOfThread_.find({rank, tid});
        return pid(rank, it == pidOfThread_.end() ? osPidOfRank(rank) : it->second);
    }
    std::int64_t flowId(std::int32_t rank, std::int64_t correlation) const {
        return multiRank_ ? ((static_cast<std::int64_t>(rank) + 1) << 40) | (correlation & ((1LL << 40) - 1))
                          : correlation;
    }
    const std::map<std::int32_t, std::int64_t>& ranks() const { return rankOsPid_; }
    const std::set<std::tuple<std::int32_t, std::int64_t, std::int64_t>>& threads() const { return threads_; }
    const std::set<std::tuple<std::int32_t, std::int32_t, std::int64_t>>& streams() const { return streams_; }

private:
    std::map<std::int32_t, std::int64_t> rankOsPid_;
    std::set<std::tuple<std::int32_t, std::int64_t, std::int64_t>> threads_; // (rank, pid, tid)
    std::map<std::pair<std::int32_t, std::int64_t>, std::int64_t> pidOfThread_;
    std::set<std::tuple<std::int32_t, std::int32_t, std::int64_t>> streams_; // (rank, device, stream)
    std::map<std::tuple<std::int32_t, std::int32_t, std::int64_t>, std::int64_t> gpuTid_;
    bool collide_ = false, multiRank_ = false;
};

Ns earliestTime(const TraceData& t) {
    Ns m = INT64_MAX;
    auto starts = [&](const auto& v) {
        for (const auto& e : v)
            m = std::min(m, e.start);
    };
    starts(t.kernels), starts(t.memcpys), starts(t.memsets), starts(t.apiCalls), starts(t.cpuRanges);
    starts(t.gpuAnnotations);
    for (const auto& f : t.flows)
        m = std::min({m, f.cpuTs, f.gpuTs});
    for (const auto& c : t.counters)
        m = std::min(m, c.ts);
    return m == INT64_MAX ? 0 : m;
}

} // namespace

std::string ChromeTraceExporter::formatMicros(Ns ns) {
    const bool negative = ns < 0;
    // Work in unsigned so INT64_MIN does not overflow.
    const std::uint64_t mag = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    std::string s = (negative ? "-" : "") + std::to_string(mag / 1000);
    const auto frac = static_cast<unsigned>(mag % 1000);
    s += '.';
    s += static_cast<char>('0' + frac / 100);
    s += static_cast<char>('0' + (frac / 10) % 10);
    s += static_cast<char>('0' + frac % 10);
    return s;
}

namespace {

// Writes the trace events of one export, one member function per event kind, in the file's order:
// top-level keys, track metadata, CPU ranges, API calls, kernels, memcpys, memsets, GPU annotations, flows,
// counters. Counts every event it writes.
class TraceEventWriter {
public:
    TraceEventWriter(JsonWriter& w, const TraceData& t, const TrackMap& tracks, Ns base)
        : w(w), t(t), S(t.strings), tracks(tracks), base(base) {}

    void topLevelKeys();
    void trackMetadata();
    void cpuRanges();
    void apiCalls();
    void kernels();
    void kernelArgs(const KernelEvent& k);
    void memcpys();
    void memsets();
    void gpuAnnotations();
    void flows();
    void counters();
    std::int64_t events() const { return events_; }

private:
    template <typename Value>
    void meta(const char* name, std::int64_t pid, std::int64_t tid, const char* argKey, Value value);
    // A complete event's common head; the caller writes its args and the object end.
    void head(const char* cat, StringId name, std::int64_t pid, std::int64_t tid, Ns start, Ns end);
    void gpuArgs(std::int32_t device, std::int64_t stream, std::int64_t correlation);
    // One complete event of a GPU activity e (kernel, memcpy, memset) on its rank's GPU track: the head,
    // then "args" with device, stream and correlation followed by what moreArgs() writes.
    template <class Event, class MoreArgs>
    void gpuEvent(const char* cat, const Event& e, MoreArgs&& moreArgs) {
        head(cat, e.name, tracks.rankPid(e.rank), tracks.gpuTid(e.rank, e.device, e.stream), e.start, e.end);
        key(w, "args");
        w.StartObject();
        gpuArgs(e.device, e.stream, e.correlation);
        moreArgs();
        w.EndObject();
        w.EndObject();
    }
    void dims(const char* k, const std::int32_t* d);

    JsonWriter& w;
    const TraceData& t;
    const StringTable& S;
    const TrackMap& tracks;
    const Ns base;
    std::int64_t events_ = 0;
};

// Everything before traceEvents[]; leaves the traceEvents array open.
void TraceEventWriter::topLevelKeys() {
    key(w, "schemaVersion");
    w.Int(1);
    key(w, "traceName");
    str(w, t.info.name);
    // deviceProperties: ascending device ids of the first rank paired with its gpuNames (importers list
    // gpuNames in ascending device order).
    key(w, "deviceProperties");
    w.StartArray();
    if (!t.ranks.empty()) {
        const auto& r0 = t.ranks.front();
        std::vector<std::int32_t> devices;
        for (const auto& [rank, device, stream] : tracks.streams())
            if (rank == r0.rank && (devices.empty() || devices.back() != device))
                devices.push_back(device);
        for (std::size_t i = 0; i < devices.size() && i < r0.gpuNames.size(); ++i) {
            w.StartObject();
            key(w, "id");
            w.Int(devices[i]);
            key(w, "name");
            str(w, r0.gpuNames[i]);
            w.EndObject();
        }
    }
    w.EndArray();
    if (tracks.ranks().size() == 1) {
        key(w, "distributedInfo");
        w.StartObject();
        key(w, "rank");
        w.Int(tracks.ranks().begin()->first);
        key(w, "world_size");
        w.Int(std::max(1, t.info.worldSize));
        w.EndObject();
    }
    for (auto [k, v] :
         {std::pair<const char*, const std::string*>{"cuda_driver_version", &t.info.driverVersion},
          {"cuda_runtime_version", &t.info.cudaVersion},
          {"cupti_version", &t.info.cuptiVersion}})
        if (!v->empty()) {
            key(w, k);
            str(w, *v);
        }
    key(w, "displayTimeUnit");
    w.String("ms");
    key(w, "baseTimeNanoseconds");
    w.Int64(base);
    key(w, "traceEvents");
    w.StartArray();
}

template <typename Value>
void TraceEventWriter::meta(const char* name, std::int64_t pid, std::int64_t tid, const char* argKey,
                            Value value) {
    w.StartObject();
    key(w, "name");
    w.String(name);
    key(w, "ph");
    w.String("M");
    key(w, "pid");
    w.Int64(pid);
    key(w, "tid");
    w.Int64(tid);
    key(w, "args");
    w.StartObject();
    key(w, argKey);
    if constexpr (std::is_integral_v<Value>)
        w.Int64(value);
    else
        str(w, value);
    w.EndObject();
    w.EndObject();
    ++events_;
}

void TraceEventWriter::trackMetadata() {
    // Metadata: processes, CPU threads, GPU stream tracks.
    std::map<std::int32_t, const RankInfo*> rankInfo;
    for (const auto& r : t.ranks)
        rankInfo[r.rank] = &r;
    for (const auto& [rank, osPid] : tracks.ranks()) {
        std::string label = "rank " + std::to_string(rank);
        auto it = rankInfo.find(rank);
        const std::string host =
            it != rankInfo.end() && !it->second->host.empty() ? it->second->host : t.info.host;
        label += " (" + (host.empty() ? std::string() : host + ", ") + "pid " + std::to_string(osPid) + ")";
        meta("process_name", tracks.rankPid(rank), 0, "name", label);
        meta("process_sort_index", tracks.rankPid(rank), 0, "sort_index", std::int64_t{rank});
    }
    std::int64_t order = 0;
    for (const auto& [rank, pid, tid] : tracks.threads()) {
        meta("thread_name", tracks.pid(rank, pid), tid, "name", "CPU thread " + std::to_string(tid));
        meta("thread_sort_index", tracks.pid(rank, pid), tid, "sort_index", order++);
    }
    for (const auto& [rank, device, stream] : tracks.streams()) {
        const auto tid = tracks.gpuTid(rank, device, stream);
        meta("thread_name", tracks.rankPid(rank), tid, "name",
             "GPU " + std::to_string(device) + " stream " + std::to_string(stream));
        meta("thread_sort_index", tracks.rankPid(rank), tid, "sort_index", order++);
    }
}

void TraceEventWriter::head(const char* cat, StringId name, std::int64_t pid, std::int64_t tid, Ns start,
                            Ns end) {
    w.StartObject();
    key(w, "ph");
    w.String("X");
    key(w, "cat");
    w.String(cat);
    key(w, "name");
    str(w, S.at(name));
    key(w, "pid");
    w.Int64(pid);
    key(w, "tid");
    w.Int64(tid);
    key(w, "ts");
    micros(w, start - base);
    key(w, "dur");
    micros(w, end - start);
    ++events_;
}

void TraceEventWriter::gpuArgs(std::int32_t device, std::int64_t stream, std::int64_t correlation) {
    key(w, "device");
    w.Int(device);
    key(w, "stream");
    w.Int64(stream);
    key(w, "correlation");
    w.Int64(correlation);
}

void TraceEventWriter::dims(const char* k, const std::int32_t* d) {
    key(w, k);
    w.StartArray();
    for (int i = 0; i < 3; ++i)
        w.Int(d[i]);
    w.EndArray();
}

void TraceEventWriter::cpuRanges() {
    for (const auto& c : t.cpuRanges) {
        head(cpuCategory(c.kind), c.name, tracks.pid(c.rank, c.pid), c.tid, c.start, c.end);
        key(w, "args");
        w.StartObject();
        key(w, "External id");
        w.Int64(c.correlation);
        if (c.kind == CpuRangeKind::Nvtx || c.kind == CpuRangeKind::Other) {
            key(w, "cnp kind");
            w.String(toString(c.kind));
        }
        if (c.domain != 0) {
            key(w, "domain");
            str(w, S.at(c.domain));
        }
        w.EndObject();
        w.EndObject();
    }
}

void TraceEventWriter::apiCalls() {
    for (const auto& a : t.apiCalls) {
        head(a.kind == ApiKind::Driver ? "cuda_driver" : "cuda_runtime", a.name, tracks.pid(a.rank, a.pid),
             a.tid, a.start, a.end);
        key(w, "args");
        w.StartObject();
        key(w, "correlation");
        w.Int64(a.correlation);
        w.EndObject();
        w.EndObject();
    }
}

void TraceEventWriter::kernels() {
    for (const auto& k : t.kernels)
        gpuEvent("kernel", k, [&] { kernelArgs(k); });
}

void TraceEventWriter::kernelArgs(const KernelEvent& k) {
    key(w, "registers per thread");
    w.Int(k.registers);
    key(w, "static shared memory");
    w.Int(k.staticSmem);
    key(w, "dynamic shared memory");
    w.Int(k.dynamicSmem);
    dims("grid", k.grid);
    dims("block", k.block);
    if (k.category != 0) {
        key(w, "category");
        str(w, S.at(k.category));
    }
}

void TraceEventWriter::memcpys() {
    for (const auto& m : t.memcpys) {
        gpuEvent("gpu_memcpy", m, [&] {
            key(w, "bytes");
            w.Int64(m.bytes);
            key(w, "kind");
            w.String(toString(m.kind));
            if (m.end > m.start) {
                key(w, "memory bandwidth (GB/s)");
                w.Double(static_cast<double>(m.bytes) / static_cast<double>(m.end - m.start));
            }
        });
    }
}

void TraceEventWriter::memsets() {
    for (const auto& m : t.memsets) {
        gpuEvent("gpu_memset", m, [&] {
            key(w, "bytes");
            w.Int64(m.bytes);
            key(w, "value");
            w.Int(m.value);
        });
    }
}

void TraceEventWriter::gpuAnnotations() {
    for (const auto& g : t.gpuAnnotations) {
        head("gpu_user_annotation", g.name, tracks.rankPid(g.rank), tracks.gpuTid(g.rank, g.device, g.stream),
             g.start, g.end);
        key(w, "args");
        w.StartObject();
        key(w, "device");
        w.Int(g.device);
        key(w, "stream");
        w.Int64(g.stream);
        w.EndObject();
        w.EndObject();
    }
}

void TraceEventWriter::flows() {
    // Flows: the GPU end needs the device of the activity carrying the correlation id.
    if (!t.flows.empty()) {
        std::unordered_map<std::uint64_t, std::int32_t> deviceOf; // (rank, correlation) -> device
        auto keyOf = [](std::int32_t rank, std::int64_t corr) {
            return (static_cast<std::uint64_t>(rank) << 44) ^ static_cast<std::uint64_t>(corr);
        };
        for (const auto& k : t.kernels)
            deviceOf.emplace(keyOf(k.rank, k.correlation), k.device);
        for (const auto& m : t.memcpys)
            deviceOf.emplace(keyOf(m.rank, m.correlation), m.device);
        for (const auto& m : t.memsets)
            deviceOf.emplace(keyOf(m.rank, m.correlation), m.device);
        for (const auto& f : t.flows) {
            auto dev = deviceOf.find(keyOf(f.rank, f.correlation));
            const std::int32_t device = dev == deviceOf.end() ? 0 : dev->second;
            const std::int64_t id = tracks.flowId(f.rank, f.correlation);
            for (int end = 0; end < 2; ++end) {
                w.StartObject();
                key(w, "ph");
                w.String(end ? "f" : "s");
                key(w, "id");
                w.Int64(id);
                key(w, "pid");
                w.Int64(end ? tracks.rankPid(f.rank) : tracks.pidOfThread(f.rank, f.tid));
                key(w, "tid");
                w.Int64(end ? tracks.gpuTid(f.rank, device, f.stream) : f.tid);
                key(w, "ts");
                micros(w, (end ? f.gpuTs : f.cpuTs) - base);
                key(w, "cat");
                w.String("ac2g");
                key(w, "name");
                w.String("ac2g");
                if (end) {
                    key(w, "bp");
                    w.String("e");
                }
                w.EndObject();
                ++events_;
            }
        }
    }
}

void TraceEventWriter::counters() {
    for (const auto& c : t.counters) {
        w.StartObject();
        key(w, "ph");
        w.String("C");
        key(w, "name");
        str(w, S.at(c.name));
        key(w, "pid");
        w.Int64(tracks.rankPid(c.rank));
        key(w, "tid");
        w.Int(0);
        key(w, "ts");
        micros(w, c.ts - base);
        key(w, "args");
        w.StartObject();
        key(w, "device " + std::to_string(c.device));
        if (std::isfinite(c.value))
            w.Double(c.value);
        else
            w.Null();
        w.EndObject();
        w.EndObject();
        ++events_;
    }
}

} // namespace

std::int64_t ChromeTraceExporter::write(const std::string& path) const {
    const TrackMap tracks(trace_);
    const Ns earliest = earliestTime(trace_);
    const Ns base = earliest >= 1'000'000'000 ? earliest / 1'000'000'000 * 1'000'000'000 : 0;
    OutputFile out(path);
    JsonWriter w(out);
    TraceEventWriter events(w, trace_, tracks, base);
    w.StartObject();
    events.topLevelKeys();
    events.trackMetadata();
    events.cpuRanges();
    events.apiCalls();
    events.kernels();
    events.memcpys();
    events.memsets();
    events.gpuAnnotations();
    events.flows();
    events.counters();
    w.EndArray();
    w.EndObject();
    out.Put('\n');
    out.commit();
    return events.events();
}

} // namespace cnp
