#include "timeline/TimelineOverview.h"

#include "core/InputError.h"
#include "core/PackedBytes.h"
#include "store/OverviewBlobs.h"
#include "timeline/OverviewGrid.h"

#include <algorithm>
#include <cstring>

namespace cnp::timeline {

namespace {

// Format 2: format 1's bytes behind core/PackedBytes deflateWithLength (about 2.5x smaller). Format 1 (the
// bytes as written by encodeRaw) is still read: workspaces and shards written before format 2.
constexpr std::int64_t kFormat = 2, kRawFormat = 1;
constexpr std::uint64_t kMaxRawBytes = std::uint64_t{1} << 30;

} // namespace

// Format 1's bytes; nullopt for truncated, foreign or inconsistent bytes. O(bytes).
std::string encodeRaw(const TimelineModel& o);
std::optional<TimelineModel> decodeRaw(std::string_view bytes);

namespace {

class Writer {
public:
    template <typename T> void put(T v) {
        const auto* p = reinterpret_cast<const char*>(&v);
        buf.append(p, sizeof(T));
    }
    void str(const std::string& s) {
        put<std::uint32_t>(static_cast<std::uint32_t>(s.size()));
        buf.append(s);
    }
    std::string buf;
};

class Reader {
public:
    Reader(const char* p, std::size_t n) : p_(p), end_(p + n) {}
    template <typename T> T get() {
        T v{};
        if (static_cast<std::size_t>(end_ - p_) < sizeof(T)) {
            ok = false;
            return v;
        }
        std::memcpy(&v, p_, sizeof(T));
        p_ += sizeof(T);
        return v;
    }
    std::string str() {
        const auto n = get<std::uint32_t>();
        if (!ok || remaining() < n) {
            ok = false;
            return {};
        }
        std::string s(p_, n);
        p_ += n;
        return s;
    }
    // A count of records of at least `minBytes` each: 0 (and not ok) when the rest of the blob cannot
    // hold that many, so no count read from a blob sizes an allocation beyond the blob itself.
    std::uint32_t count(std::size_t minBytes) {
        const auto n = get<std::uint32_t>();
        if (!ok || n > remaining() / minBytes) {
            ok = false;
            return 0;
        }
        return n;
    }
    std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }
    bool ok = true;

private:
    const char* p_;
    const char* end_;
};

} // namespace

TimelineModel makeOverview(const TimelineModel& full, int buckets) {
    TimelineModel o;
    o.runId = full.runId;
    o.runName = full.runName;
    o.runStart = full.runStart;
    o.runEnd = full.runEnd;
    o.groups = full.groups;
    o.names = full.names;
    o.styles = full.styles;
    o.steps = full.steps;
    const Ns width = overviewBucketWidth(full.runStart, full.runEnd, buckets);
    for (const TimelineRow& r : full.rows) {
        TimelineRow c = r.header();
        c.counter = mergeCounterPerBucket(r.counter, width);
        for (const EventTrack& tr : r.lanes)
            c.lanes.push_back(mergeLanePerBucket(tr, width));
        o.rows.push_back(std::move(c));
    }
    return o;
}

void storeOverview(Workspace& ws, const TimelineModel& o) {
    writeOverviewBlob(ws, o.runId, kFormat, encodeOverview(o));
}

std::int64_t overviewFormat() {
    return kFormat;
}

std::string encodeOverview(const TimelineModel& o) {
    return deflateWithLength(encodeRaw(o));
}

std::string encodeRaw(const TimelineModel& o) {
    Writer w;
    w.put<std::int64_t>(o.runStart);
    w.put<std::int64_t>(o.runEnd);
    w.str(o.runName);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(o.names.size()));
    for (const auto& s : o.names)
        w.str(s);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(o.styles.size()));
    for (const auto& s : o.styles)
        w.str(s);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(o.groups.size()));
    for (const auto& g : o.groups) {
        w.str(g.label);
        w.put<std::int32_t>(g.parent);
        w.put<std::int32_t>(g.depth);
        w.put<std::int32_t>(g.rank);
    }
    w.put<std::uint32_t>(static_cast<std::uint32_t>(o.steps.size()));
    for (const auto& s : o.steps) {
        w.put<std::int32_t>(s.rank);
        w.put<std::int32_t>(s.index);
        w.put<std::uint32_t>(s.name);
        w.put<std::int64_t>(s.cpuStart);
        w.put<std::int64_t>(s.cpuEnd);
        w.put<std::int64_t>(s.gpuStart);
        w.put<std::int64_t>(s.gpuEnd);
    }
    w.put<std::uint32_t>(static_cast<std::uint32_t>(o.rows.size()));
    for (const auto& r : o.rows) {
        w.put<std::uint8_t>(static_cast<std::uint8_t>(r.kind));
        w.str(r.label);
        w.put<std::int32_t>(r.group);
        w.put<std::int32_t>(r.rank);
        w.put<std::int32_t>(r.device);
        w.put<std::int64_t>(r.stream);
        w.put<std::int64_t>(r.pid);
        w.put<std::int64_t>(r.tid);
        w.put<std::uint32_t>(static_cast<std::uint32_t>(r.counter.ts.size()));
        for (std::size_t k = 0; k < r.counter.ts.size(); ++k) {
            w.put<std::int64_t>(r.counter.ts[k]);
            w.put<double>(r.counter.value[k]);
        }
        w.put<std::uint32_t>(static_cast<std::uint32_t>(r.lanes.size()));
        for (const auto& l : r.lanes) {
            w.put<std::uint32_t>(static_cast<std::uint32_t>(l.size()));
            for (std::size_t i = 0; i < l.size(); ++i) {
                w.put<std::int64_t>(l.start(i));
                w.put<std::int64_t>(l.end(i));
                w.put<std::uint32_t>(l.name(i));
                w.put<std::uint8_t>(l.style(i));
                w.put<std::uint8_t>(static_cast<std::uint8_t>(l.kind(i)));
            }
        }
    }
    return std::move(w.buf);
}

bool hasOverview(const Workspace& ws, RunId runId) {
    return hasOverviewBlob(ws, runId, kFormat) || hasOverviewBlob(ws, runId, kRawFormat);
}

bool readsOverviewFormat(std::int64_t format) {
    return format == kFormat || format == kRawFormat;
}

namespace {

// Serialised sizes of the smallest record of each kind (a string is a 4-byte length and its bytes).
constexpr std::size_t kGroupBytes = 4 + 3 * 4, kStepBytes = 3 * 4 + 4 * 8,
                      kRowBytes = 1 + 4 + 3 * 4 + 3 * 8 + 2 * 4, kSampleBytes = 8 + 8, kLaneBytes = 4,
                      kEventBytes = 2 * 8 + 4 + 1 + 1;

void readTables(Reader& rd, TimelineModel& o) {
    o.runStart = rd.get<std::int64_t>();
    o.runEnd = rd.get<std::int64_t>();
    o.runName = rd.str();
    for (auto n = rd.count(4); rd.ok && n > 0; --n)
        o.names.push_back(rd.str());
    for (auto n = rd.count(4); rd.ok && n > 0; --n)
        o.styles.push_back(rd.str());
    for (auto n = rd.count(kGroupBytes); rd.ok && n > 0; --n) {
        TimelineGroup g;
        g.label = rd.str();
        g.parent = rd.get<std::int32_t>();
        g.depth = rd.get<std::int32_t>();
        g.rank = rd.get<std::int32_t>();
        o.groups.push_back(g);
    }
    for (auto n = rd.count(kStepBytes); rd.ok && n > 0; --n) {
        StepRange s;
        s.rank = rd.get<std::int32_t>();
        s.index = rd.get<std::int32_t>();
        s.name = rd.get<std::uint32_t>();
        s.cpuStart = rd.get<std::int64_t>();
        s.cpuEnd = rd.get<std::int64_t>();
        s.gpuStart = rd.get<std::int64_t>();
        s.gpuEnd = rd.get<std::int64_t>();
        o.steps.push_back(s);
    }
}

EventTrack readLane(Reader& rd) {
    EventTrack tr;
    const auto n = rd.count(kEventBytes);
    tr.reserve(n);
    for (std::uint32_t i = 0; rd.ok && i < n; ++i) {
        const Ns s = rd.get<std::int64_t>(), e = rd.get<std::int64_t>();
        const auto name = rd.get<std::uint32_t>();
        const auto style = rd.get<std::uint8_t>();
        const auto kind = rd.get<std::uint8_t>();
        tr.append(s, e, name, style, static_cast<EventKind>(kind));
    }
    tr.finish();
    return tr;
}

TimelineRow readRow(Reader& rd) {
    TimelineRow r;
    r.kind = static_cast<RowKind>(rd.get<std::uint8_t>());
    r.label = rd.str();
    r.group = rd.get<std::int32_t>();
    r.rank = rd.get<std::int32_t>();
    r.device = rd.get<std::int32_t>();
    r.stream = rd.get<std::int64_t>();
    r.pid = rd.get<std::int64_t>();
    r.tid = rd.get<std::int64_t>();
    for (auto c = rd.count(kSampleBytes); rd.ok && c > 0; --c) {
        r.counter.ts.push_back(rd.get<std::int64_t>());
        r.counter.value.push_back(rd.get<double>());
    }
    if (!r.counter.value.empty()) {
        const auto [mn, mx] = std::minmax_element(r.counter.value.begin(), r.counter.value.end());
        r.counter.minValue = *mn;
        r.counter.maxValue = *mx;
    }
    for (auto l = rd.count(kLaneBytes); rd.ok && l > 0; --l)
        r.lanes.push_back(readLane(rd));
    return r;
}

// Groups form a forest whose parents precede their children (so no cycles) at consistent depths.
bool groupsConsistent(const std::vector<TimelineGroup>& groups) {
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const int parent = groups[g].parent;
        if (parent < -1 || parent >= static_cast<int>(g))
            return false;
        if (groups[g].depth != (parent < 0 ? 0 : groups[static_cast<std::size_t>(parent)].depth + 1))
            return false;
    }
    return true;
}

// EventTrack's invariant (sorted, not overlapping) and every table index in range.
bool laneConsistent(const EventTrack& tr, const TimelineModel& o) {
    for (std::size_t i = 0; i < tr.size(); ++i) {
        if (tr.name(i) >= o.names.size() || tr.style(i) >= o.styles.size() || tr.kind(i) > EventKind::Step)
            return false;
        if (i + 1 < tr.size() && tr.effectiveEnd(i) > tr.start(i + 1))
            return false;
    }
    return true;
}

bool rowConsistent(const TimelineRow& r, const TimelineModel& o) {
    if (r.kind > kLastRowKind || r.group < -1 || r.group >= static_cast<int>(o.groups.size()))
        return false;
    if (!std::is_sorted(r.counter.ts.begin(), r.counter.ts.end()))
        return false;
    return std::all_of(r.lanes.begin(), r.lanes.end(),
                       [&](const EventTrack& tr) { return laneConsistent(tr, o); });
}

// Everything the timeline view indexes or searches is in range and ordered: a corrupt or crafted blob
// is refused (the caller then loads the full events) instead of crashing or hanging the view. O(size).
bool consistent(const TimelineModel& o) {
    if (o.runStart > o.runEnd || o.names.empty() || !groupsConsistent(o.groups))
        return false;
    for (const auto& s : o.steps)
        if (s.name >= o.names.size())
            return false;
    return std::all_of(o.rows.begin(), o.rows.end(),
                       [&](const TimelineRow& r) { return rowConsistent(r, o); });
}

} // namespace

std::optional<TimelineModel> loadOverview(const Workspace& ws, RunId runId) {
    const std::int64_t format = hasOverviewBlob(ws, runId, kFormat)      ? kFormat
                                : hasOverviewBlob(ws, runId, kRawFormat) ? kRawFormat
                                                                         : 0;
    if (format == 0)
        return std::nullopt;
    std::optional<TimelineModel> o;
    const bool found = readOverviewBlob(ws, runId, [&](const char* data, std::size_t size) {
        o = decodeOverview(std::string_view(data, size), format);
    });
    if (!found || !o)
        return std::nullopt; // truncated, foreign or inconsistent data: fall back to the full load
    o->runId = runId;
    o->collapseRanksBeyond(kExpandedRanks); // not stored: the same default as the full model's
    return o;
}

std::optional<TimelineModel> decodeOverview(std::string_view bytes, std::int64_t format) {
    if (format == kRawFormat)
        return decodeRaw(bytes);
    if (format != kFormat)
        return std::nullopt;
    std::string raw;
    try {
        raw = inflateWithLength(bytes, kMaxRawBytes, "", "timeline overview");
    } catch (const InputError&) {
        return std::nullopt;
    }
    return decodeRaw(raw);
}

std::optional<TimelineModel> decodeRaw(std::string_view bytes) {
    TimelineModel o;
    Reader rd(bytes.data(), bytes.size());
    readTables(rd, o);
    for (auto n = rd.count(kRowBytes); rd.ok && n > 0; --n)
        o.rows.push_back(readRow(rd));
    if (!rd.ok || rd.remaining() != 0 || !consistent(o))
        return std::nullopt;
    return o;
}

} // namespace cnp::timeline
