#include "timeline/TimelineBuilder.h"

#include "timeline/QueueLengthLanes.h"

#include <algorithm>
#include <set>

namespace cnp::timeline {

const char* TimelineBuilder::cpuRangeStyle(CpuRangeKind k) {
    return k == CpuRangeKind::Other ? "cpu range" : toString(k);
}

TimelineBuilder::TimelineBuilder() {
    names_.emplace_back();
    nameIndex_.emplace("", 0);
    styles_.emplace_back("");
}

std::uint32_t TimelineBuilder::internName(std::string_view name) {
    const auto it = nameIndex_.find(std::string(name));
    if (it != nameIndex_.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(names_.size());
    names_.emplace_back(name);
    nameIndex_.emplace(std::string(name), id);
    return id;
}

std::uint8_t TimelineBuilder::internStyle(std::string_view style) {
    for (std::size_t k = 0; k < styles_.size(); ++k)
        if (styles_[k] == style)
            return static_cast<std::uint8_t>(k);
    if (styles_.size() >= 255)
        return 0; // more styles than a byte holds: fall back to the neutral style
    styles_.emplace_back(style);
    return static_cast<std::uint8_t>(styles_.size() - 1);
}

std::uint32_t TimelineBuilder::addNameSlot() {
    names_.emplace_back();
    return static_cast<std::uint32_t>(names_.size() - 1);
}

void TimelineBuilder::setName(std::uint32_t id, std::string text) {
    names_[id] = std::move(text);
}

std::vector<TimelineBuilder::RawEvent>& TimelineBuilder::rowEvents(const RowKey& key) {
    if (lastRow_ && key == lastKey_)
        return *lastRow_;
    lastKey_ = key;
    lastRow_ = &events_[key];
    return *lastRow_;
}

void TimelineBuilder::addGpuEvent(std::int32_t rank, std::int32_t device, std::int64_t stream, EventKind kind,
                                  Ns start, Ns end, std::uint32_t name, std::uint8_t style) {
    rowEvents({rank, 1, device, static_cast<int>(RowKind::GpuStream), stream})
        .push_back({start, end, name, style, kind});
}

void TimelineBuilder::addGpuAnnotation(std::int32_t rank, std::int32_t device, Ns start, Ns end,
                                       std::uint32_t name) {
    const std::uint8_t style = internStyle("gpu annotation");
    rowEvents({rank, 1, device, static_cast<int>(RowKind::GpuAnnotations), 0})
        .push_back({start, end, name, style, EventKind::GpuAnnotation});
}

void TimelineBuilder::addCpuEvent(std::int32_t rank, std::int64_t pid, std::int64_t tid, EventKind kind,
                                  Ns start, Ns end, std::uint32_t name, std::uint8_t style) {
    rowEvents({rank, 2, pid, static_cast<int>(RowKind::CpuThread), tid})
        .push_back({start, end, name, style, kind});
}

void TimelineBuilder::addStep(const StepRange& step) {
    steps_.push_back(step);
    const Ns s = step.gpuStart >= 0 ? step.gpuStart : step.cpuStart;
    const Ns e = step.gpuStart >= 0 ? std::max(step.gpuEnd, step.gpuStart) : step.cpuEnd;
    const std::uint8_t style = internStyle("step");
    rowEvents({step.rank, 0, 0, static_cast<int>(RowKind::Steps), 0})
        .push_back({s, e, static_cast<std::uint32_t>(step.name), style, EventKind::Step});
}

void TimelineBuilder::addCounterSample(std::int32_t rank, std::int32_t device, std::uint32_t name, Ns ts,
                                       double value) {
    counters_[{rank, 1, device, static_cast<int>(RowKind::Counter), name}].emplace_back(ts, value);
}

void TimelineBuilder::setRankLabel(std::int32_t rank, std::string label) {
    rankLabels_[rank] = std::move(label);
}

void TimelineBuilder::setGpuLabel(std::int32_t rank, std::int32_t device, std::string label) {
    gpuLabels_[{rank, device}] = std::move(label);
}

void TimelineBuilder::buildLanes(std::vector<RawEvent>& ev, TimelineRow& row) {
    auto effEnd = [](const RawEvent& e) { return std::max(e.end, e.start + 1); };
    std::sort(ev.begin(), ev.end(), [&](const RawEvent& a, const RawEvent& b) {
        return a.start != b.start ? a.start < b.start : effEnd(a) > effEnd(b);
    });
    // Pass 1: lane of each event by nesting (a stack of open effective ends), and lane sizes.
    std::vector<std::uint16_t> lane(ev.size());
    std::vector<Ns> open;
    std::vector<std::size_t> laneSize;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        while (!open.empty() && open.back() <= ev[i].start)
            open.pop_back();
        const std::size_t d = std::min<std::size_t>(open.size(), 0xffff);
        lane[i] = static_cast<std::uint16_t>(d);
        open.push_back(effEnd(ev[i]));
        if (laneSize.size() <= d)
            laneSize.resize(d + 1, 0);
        ++laneSize[d];
    }
    // Pass 2: exact-size lanes.
    row.lanes.resize(laneSize.size());
    for (std::size_t d = 0; d < laneSize.size(); ++d)
        row.lanes[d].reserve(laneSize[d]);
    for (std::size_t i = 0; i < ev.size(); ++i)
        row.lanes[lane[i]].append(ev[i].start, ev[i].end, ev[i].name, ev[i].style, ev[i].kind);
    for (auto& l : row.lanes)
        l.finish();
}

void TimelineBuilder::addBusyRows() {
    std::map<std::int32_t, std::vector<std::pair<Ns, Ns>>> spans; // rank -> GPU activity spans
    for (const auto& [key, ev] : events_)
        if (std::get<3>(key) == static_cast<int>(RowKind::GpuStream))
            for (const auto& e : ev)
                spans[std::get<0>(key)].emplace_back(e.start, e.end);
    const std::uint32_t name = internName("GPU busy");
    const std::uint8_t style = internStyle("gpu busy");
    for (auto& [rank, s] : spans) {
        std::sort(s.begin(), s.end());
        auto& row = events_[{rank, 0, 0, static_cast<int>(RowKind::GpuBusy), 0}];
        for (const auto& [start, end] : s) {
            if (!row.empty() && start <= row.back().end)
                row.back().end = std::max(row.back().end, end); // overlapping or touching: one busy span
            else
                row.push_back({start, end, name, style, EventKind::GpuAnnotation});
        }
    }
}

void TimelineBuilder::placeGroups(TimelineModel& m, const RowKey& key, GroupCursor& at) const {
    const auto& [rank, section, a, kindInt, b] = key;
    if (at.rankGroup < 0 || rank != at.rank) {
        TimelineGroup g;
        const auto lab = rankLabels_.find(rank);
        g.label = lab != rankLabels_.end() ? lab->second : "Rank " + std::to_string(rank);
        g.rank = rank;
        m.groups.push_back(g);
        at.rankGroup = static_cast<int>(m.groups.size()) - 1;
        at.rank = rank;
        at.section = -1;
    }
    const std::int64_t sectionKey = section == 1 ? a : -1;
    if (section != 0 && (section != at.section || sectionKey != at.sectionKey)) {
        TimelineGroup g;
        g.parent = at.rankGroup;
        g.depth = 1;
        g.rank = rank;
        if (section == 1) {
            const auto lab = gpuLabels_.find({rank, static_cast<std::int32_t>(a)});
            g.label = lab != gpuLabels_.end() ? lab->second : "GPU " + std::to_string(a);
        } else {
            g.label = "CPU threads";
        }
        m.groups.push_back(g);
        at.sectionGroup = static_cast<int>(m.groups.size()) - 1;
        at.section = section;
        at.sectionKey = sectionKey;
    }
}

TimelineRow TimelineBuilder::emptyRow(const RowKey& key, const GroupCursor& at) const {
    const auto& [rank, section, a, kindInt, b] = key;
    TimelineRow row;
    row.kind = static_cast<RowKind>(kindInt);
    row.rank = rank;
    row.group = section == 0 ? at.rankGroup : at.sectionGroup;
    switch (row.kind) {
    case RowKind::Steps:
        row.label = "Steps";
        break;
    case RowKind::GpuAnnotations:
        row.device = static_cast<std::int32_t>(a);
        row.label = "Annotations";
        break;
    case RowKind::GpuStream:
        row.device = static_cast<std::int32_t>(a);
        row.stream = b;
        row.label = "Stream " + std::to_string(b);
        break;
    case RowKind::Counter:
        row.device = static_cast<std::int32_t>(a);
        row.label = names_[static_cast<std::size_t>(b)];
        break;
    case RowKind::GpuBusy:
        row.label = "GPU busy";
        break;
    case RowKind::CpuThread:
        row.pid = a;
        row.tid = b;
        row.label = "Thread " + std::to_string(b) + (a != 0 ? " (pid " + std::to_string(a) + ")" : "");
        break;
    }
    return row;
}

void TimelineBuilder::fillCounter(std::vector<std::pair<Ns, double>>& samples, TimelineRow& row) {
    std::sort(samples.begin(), samples.end());
    row.counter.ts.reserve(samples.size());
    row.counter.value.reserve(samples.size());
    for (const auto& [t, v] : samples) {
        row.counter.ts.push_back(t);
        row.counter.value.push_back(v);
    }
    if (!samples.empty()) {
        const auto [mn, mx] = std::minmax_element(row.counter.value.begin(), row.counter.value.end());
        row.counter.minValue = *mn;
        row.counter.maxValue = *mx;
    }
}

void TimelineBuilder::extendRunSpan(TimelineModel& m, const TimelineRow& row) {
    Ns lo = 0, hi = 0;
    bool any = false;
    for (const auto& l : row.lanes)
        if (!l.empty()) {
            lo = any ? std::min(lo, l.firstStart()) : l.firstStart();
            hi = any ? std::max(hi, l.lastEnd()) : l.lastEnd();
            any = true;
        }
    if (!row.counter.ts.empty()) {
        lo = any ? std::min(lo, row.counter.ts.front()) : row.counter.ts.front();
        hi = any ? std::max(hi, row.counter.ts.back()) : row.counter.ts.back();
        any = true;
    }
    if (any) {
        const bool firstSpan = m.runStart == 0 && m.runEnd == 0;
        m.runStart = firstSpan ? lo : std::min(m.runStart, lo);
        m.runEnd = firstSpan ? hi : std::max(m.runEnd, hi);
    }
}

TimelineModel TimelineBuilder::build(const ProgressSink& sink) {
    TimelineModel m;
    std::set<std::int32_t> ranks;
    for (const auto& [key, ev] : events_)
        ranks.insert(std::get<0>(key));
    if (ranks.size() > kExpandedRanks || busyRows_ == BusyRows::Always)
        addBusyRows();
    // Counter rows join the event rows in key order (same RowKey space).
    for (auto& [key, samples] : counters_)
        events_[key]; // creates an empty entry so the row is placed
    const double total = static_cast<double>(std::max<std::size_t>(1, events_.size()));
    std::size_t done = 0;
    GroupCursor at;
    m.runStart = 0;
    m.runEnd = 0;
    // Rows are built in key order and their raw events freed as they go (peak: raw + one row's lanes).
    for (auto it = events_.begin(); it != events_.end(); it = events_.erase(it)) {
        sink.checkCancel();
        placeGroups(m, it->first, at);
        TimelineRow row = emptyRow(it->first, at);
        if (row.kind == RowKind::Counter) {
            fillCounter(counters_[it->first], row);
            counters_.erase(it->first);
        } else {
            buildLanes(it->second, row);
            std::vector<RawEvent>().swap(it->second);
        }
        extendRunSpan(m, row);
        m.rows.push_back(std::move(row));
        sink.report(static_cast<double>(++done) / total);
    }
    lastRow_ = nullptr;
    m.collapseRanksBeyond(kExpandedRanks);
    m.names = std::move(names_);
    m.styles = std::move(styles_);
    std::sort(steps_.begin(), steps_.end(), [](const StepRange& x, const StepRange& y) {
        return std::tie(x.rank, x.index) < std::tie(y.rank, y.index);
    });
    m.steps = std::move(steps_);
    *this = TimelineBuilder();
    return m;
}

TimelineModel TimelineBuilder::fromTrace(const TraceData& t, const ProgressSink& sink, BusyRows busyRows) {
    TimelineBuilder b;
    b.setBusyRows(busyRows);
    std::vector<std::uint32_t> nameOf(t.strings.size());
    for (StringId k = 0; k < t.strings.size(); ++k)
        nameOf[k] = b.internName(t.strings.at(k));
    for (const auto& k : t.kernels) {
        const std::string& cat = t.strings.at(k.category);
        b.addGpuEvent(k.rank, k.device, k.stream, EventKind::Kernel, k.start, k.end, nameOf[k.name],
                      b.internStyle(cat.empty() ? "other" : cat));
    }
    for (const auto& c : t.memcpys)
        b.addGpuEvent(c.rank, c.device, c.stream, EventKind::Memcpy, c.start, c.end,
                      c.name ? nameOf[c.name] : b.internName(std::string("Memcpy ") + toString(c.kind)),
                      b.internStyle("memory"));
    for (const auto& c : t.memsets)
        b.addGpuEvent(c.rank, c.device, c.stream, EventKind::Memset, c.start, c.end,
                      c.name ? nameOf[c.name] : b.internName("Memset"), b.internStyle("memory"));
    for (const auto& g : t.gpuAnnotations)
        b.addGpuAnnotation(g.rank, g.device, g.start, g.end, nameOf[g.name]);
    for (const auto& a : t.apiCalls)
        b.addCpuEvent(a.rank, a.pid, a.tid, EventKind::ApiCall, a.start, a.end, nameOf[a.name],
                      b.internStyle(a.kind == ApiKind::Runtime ? "runtime API" : "driver API"));
    for (const auto& r : t.cpuRanges)
        b.addCpuEvent(r.rank, r.pid, r.tid, EventKind::CpuRange, r.start, r.end, nameOf[r.name],
                      b.internStyle(cpuRangeStyle(r.kind)));
    for (StepRange s : t.steps) {
        s.name = nameOf[s.name];
        b.addStep(s);
    }
    for (const auto& c : t.counters)
        b.addCounterSample(c.rank, c.device, nameOf[c.name], c.ts, c.value);
    QueueLengthLanes queues;
    for (const auto& k : t.kernels)
        queues.addOperation(k.rank, k.device, k.stream, k.correlation, k.start);
    for (const auto& c : t.memcpys)
        queues.addOperation(c.rank, c.device, c.stream, c.correlation, c.start);
    for (const auto& c : t.memsets)
        queues.addOperation(c.rank, c.device, c.stream, c.correlation, c.start);
    for (const auto& a : t.apiCalls)
        queues.addLaunch(a.rank, a.correlation, a.start);
    queues.emit(b);
    for (const auto& r : t.ranks)
        b.setRankLabel(r.rank, "Rank " + std::to_string(r.rank) + (r.host.empty() ? "" : " · " + r.host));
    return b.build(sink);
}

} // namespace cnp::timeline
