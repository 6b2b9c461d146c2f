#include "timeline/EventDetails.h"

#include "store/EventLookup.h"

#include <optional>
#include <string>

namespace cnp::timeline {

EventRef findEvent(const TimelineModel& m, std::int32_t rank, RowKind kind, std::int64_t key, Ns start) {
    for (int r = 0; r < static_cast<int>(m.rows.size()); ++r) {
        const TimelineRow& row = m.rows[r];
        if (row.rank != rank || row.kind != kind)
            continue;
        const std::int64_t rowKey = kind == RowKind::CpuThread ? row.tid : row.stream;
        if (key >= 0 && rowKey != key)
            continue;
        for (int l = 0; l < static_cast<int>(row.lanes.size()); ++l) {
            const EventTrack& tr = row.lanes[l];
            const std::size_t i = tr.firstStartingAtOrAfter(start);
            if (i < tr.size() && tr.start(i) == start)
                return {r, l, static_cast<std::uint32_t>(i)};
        }
    }
    return {};
}

namespace {

void setLink(const EventLookup::Linked& l, const Workspace& ws, EventDetails& d) {
    d.linkStart = l.start;
    d.linkEnd = l.end;
    d.linkName = ws.stringById(l.nameId);
}

void launchingCall(const Workspace& ws, const TimelineModel& m, EventDetails& d) {
    if (d.correlation == 0)
        return;
    const EventLookup look(ws, m.runId);
    // With a flow: the calls starting at its CPU time; without: a scan of the rank's calls.
    const auto flow = look.flow(d.rank, d.correlation);
    const std::optional<Ns> at = flow && flow->cpu >= 0 ? std::optional<Ns>(flow->cpu) : std::nullopt;
    const auto call = look.apiCallOf(d.rank, d.correlation, at);
    if (!call)
        return;
    setLink(*call, ws, d);
    d.linkTid = call->key;
    d.link = findEvent(m, d.rank, RowKind::CpuThread, d.linkTid, d.linkStart);
}

void launchedActivity(const Workspace& ws, const TimelineModel& m, EventDetails& d) {
    if (d.correlation == 0)
        return;
    const EventLookup look(ws, m.runId);
    // With a flow: the activities starting at its GPU time; without: scans of the rank's activities.
    const auto flow = look.flow(d.rank, d.correlation);
    const std::optional<Ns> at = flow ? std::optional<Ns>(flow->gpu) : std::nullopt;
    for (const EventKind kind : kGpuActivityKinds) {
        if (const auto act = look.activityOf(kind, d.rank, d.correlation, at)) {
            setLink(*act, ws, d);
            d.linkStream = act->key;
            d.link = findEvent(m, d.rank, RowKind::GpuStream, d.linkStream, d.linkStart);
            return;
        }
    }
}

} // namespace

EventDetails lookupEventDetails(const Workspace& ws, const TimelineModel& m, const EventRef& ref) {
    EventDetails d;
    if (!ref.valid())
        return d;
    const TimelineRow& row = m.rows[ref.row];
    const EventTrack& tr = row.lanes[ref.lane];
    const std::size_t i = ref.index;
    d.kind = tr.kind(i);
    d.name = m.names[tr.name(i)];
    d.category = m.styles[tr.style(i)];
    d.start = tr.start(i);
    d.end = tr.end(i);
    d.rank = row.rank;
    d.device = row.device;
    d.stream = row.stream;
    d.pid = row.pid;
    d.tid = row.tid;
    const EventLookup look(ws, m.runId);
    switch (d.kind) {
    case EventKind::Kernel: {
        if (const auto k = look.kernelAt(d.rank, d.start, d.device, d.stream, d.end)) {
            d.correlation = k->correlation;
            for (int i = 0; i < 3; ++i) {
                d.grid[i] = k->grid[i];
                d.block[i] = k->block[i];
            }
            d.registers = k->registers;
            d.staticSmem = k->staticSmem;
            d.dynamicSmem = k->dynamicSmem;
        }
        launchingCall(ws, m, d);
        break;
    }
    case EventKind::Memcpy:
    case EventKind::Memset: {
        const bool cpy = d.kind == EventKind::Memcpy;
        if (const auto r = look.memoryAt(cpy ? EventKind::Memcpy : EventKind::Memset, d.rank, d.start,
                                         d.device, d.stream)) {
            d.correlation = r->correlation;
            d.bytes = r->bytes;
            d.extra = cpy ? std::string(toString(static_cast<MemcpyKind>(r->value)))
                          : "value " + std::to_string(r->value);
        }
        launchingCall(ws, m, d);
        break;
    }
    case EventKind::ApiCall: {
        if (const auto c = look.apiCallAt(d.rank, d.start, d.tid)) {
            d.correlation = c->correlation;
            d.extra = std::string(toString(static_cast<ApiKind>(c->kind))) + " API";
        }
        launchedActivity(ws, m, d);
        break;
    }
    case EventKind::CpuRange: {
        if (const auto c = look.cpuRangeAt(d.rank, d.start, d.tid, d.end)) {
            d.correlation = c->correlation;
            d.extra = std::string(toString(static_cast<CpuRangeKind>(c->kind))) + ", depth " +
                      std::to_string(c->depth);
        }
        break;
    }
    case EventKind::GpuAnnotation:
    case EventKind::Step:
        break;
    }
    return d;
}

} // namespace cnp::timeline
