#include "timeline/EventDetails.h"

#include <limits>

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

// Ids [first, second) of the run's rows in `table` of `rank` whose sort key (schema::eventTables()) is
// `key`; O(log n) reads.
std::pair<std::int64_t, std::int64_t> rowsAt(const Workspace& ws, std::string_view table, std::int64_t runId,
                                             std::int32_t rank, std::int64_t key) {
    const IdRange r = ws.eventRows(runId, table);
    return {ws.lowerBoundId(table, r, rank, key), ws.lowerBoundId(table, r, rank, key + 1)};
}

// Ids [first, second) of all the run's rows in `table` of `rank`.
std::pair<std::int64_t, std::int64_t> rankRows(const Workspace& ws, std::string_view table,
                                               std::int64_t runId, std::int32_t rank) {
    const IdRange r = ws.eventRows(runId, table);
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    return {ws.lowerBoundId(table, r, rank, kMin), ws.lowerBoundId(table, r, rank + 1, kMin)};
}

void launchingCall(const Workspace& ws, const TimelineModel& m, EventDetails& d) {
    if (d.correlation == 0)
        return;
    sqlite3* db = ws.db();
    Ns cpu = -1;
    std::int64_t tid = -1;
    {
        const auto ids = rowsAt(ws, "flows", m.runId, d.rank, d.correlation);
        Statement st(db, "SELECT cpu_ns, tid FROM flows WHERE id >= ? AND id < ? LIMIT 1");
        st.bind(1, ids.first).bind(2, ids.second);
        if (st.step()) {
            cpu = st.i64(0);
            tid = st.i64(1);
        }
    }
    // With a flow: the calls starting at its CPU time; without: a scan of the rank's calls.
    const auto ids =
        cpu >= 0 ? rowsAt(ws, "api_calls", m.runId, d.rank, cpu) : rankRows(ws, "api_calls", m.runId, d.rank);
    Statement st(db, "SELECT start_ns, end_ns, tid, name_id FROM api_calls WHERE id >= ? AND id < ? "
                     "AND correlation = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, d.correlation);
    if (!st.step())
        return;
    d.linkStart = st.i64(0);
    d.linkEnd = st.i64(1);
    d.linkTid = st.i64(2);
    d.linkName = ws.stringById(st.i64(3));
    (void)tid;
    d.link = findEvent(m, d.rank, RowKind::CpuThread, d.linkTid, d.linkStart);
}

void launchedActivity(const Workspace& ws, const TimelineModel& m, EventDetails& d) {
    if (d.correlation == 0)
        return;
    sqlite3* db = ws.db();
    const auto flowIds = rowsAt(ws, "flows", m.runId, d.rank, d.correlation);
    Statement fl(db, "SELECT gpu_ns, stream FROM flows WHERE id >= ? AND id < ? LIMIT 1");
    fl.bind(1, flowIds.first).bind(2, flowIds.second);
    const char* tables[] = {"kernels", "memcpys", "memsets"};
    if (fl.step()) {
        const Ns gpu = fl.i64(0);
        for (const char* t : tables) {
            const auto ids = rowsAt(ws, t, m.runId, d.rank, gpu);
            Statement st(db, std::string("SELECT start_ns, end_ns, stream, name_id FROM ") + t +
                                 " WHERE id >= ? AND id < ? AND correlation = ? LIMIT 1");
            st.bind(1, ids.first).bind(2, ids.second).bind(3, d.correlation);
            if (st.step()) {
                d.linkStart = st.i64(0);
                d.linkEnd = st.i64(1);
                d.linkStream = st.i64(2);
                d.linkName = ws.stringById(st.i64(3));
                d.link = findEvent(m, d.rank, RowKind::GpuStream, d.linkStream, d.linkStart);
                return;
            }
        }
        return;
    }
    for (const char* t : tables) { // no flow rows: scan the rank's activities by correlation
        const auto ids = rankRows(ws, t, m.runId, d.rank);
        Statement st(db, std::string("SELECT start_ns, end_ns, stream, name_id FROM ") + t +
                             " WHERE id >= ? AND id < ? AND correlation = ? LIMIT 1");
        st.bind(1, ids.first).bind(2, ids.second).bind(3, d.correlation);
        if (st.step()) {
            d.linkStart = st.i64(0);
            d.linkEnd = st.i64(1);
            d.linkStream = st.i64(2);
            d.linkName = ws.stringById(st.i64(3));
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
    sqlite3* db = ws.db();
    switch (d.kind) {
    case EventKind::Kernel: {
        const auto ids = rowsAt(ws, "kernels", m.runId, d.rank, d.start);
        Statement st(db, "SELECT correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, "
                         "static_smem, dynamic_smem FROM kernels WHERE id >= ? AND id < ? AND device = ? AND "
                         "stream = ? AND end_ns = ? LIMIT 1");
        st.bind(1, ids.first).bind(2, ids.second).bind(3, d.device).bind(4, d.stream).bind(5, d.end);
        if (st.step()) {
            d.correlation = st.i64(0);
            for (int k = 0; k < 3; ++k) {
                d.grid[k] = st.i32(1 + k);
                d.block[k] = st.i32(4 + k);
            }
            d.registers = st.i32(7);
            d.staticSmem = st.i32(8);
            d.dynamicSmem = st.i32(9);
        }
        launchingCall(ws, m, d);
        break;
    }
    case EventKind::Memcpy:
    case EventKind::Memset: {
        const bool cpy = d.kind == EventKind::Memcpy;
        const auto ids = rowsAt(ws, cpy ? "memcpys" : "memsets", m.runId, d.rank, d.start);
        Statement st(db,
                     cpy ? "SELECT correlation, bytes, copy_kind FROM memcpys WHERE id >= ? AND id < ? AND "
                           "device = ? AND stream = ? LIMIT 1"
                         : "SELECT correlation, bytes, value FROM memsets WHERE id >= ? AND id < ? AND "
                           "device = ? AND stream = ? LIMIT 1");
        st.bind(1, ids.first).bind(2, ids.second).bind(3, d.device).bind(4, d.stream);
        if (st.step()) {
            d.correlation = st.i64(0);
            d.bytes = st.i64(1);
            d.extra = cpy ? std::string(toString(static_cast<MemcpyKind>(st.i32(2))))
                          : "value " + std::to_string(st.i32(2));
        }
        launchingCall(ws, m, d);
        break;
    }
    case EventKind::ApiCall: {
        const auto ids = rowsAt(ws, "api_calls", m.runId, d.rank, d.start);
        Statement st(db,
                     "SELECT correlation, kind FROM api_calls WHERE id >= ? AND id < ? AND tid = ? LIMIT 1");
        st.bind(1, ids.first).bind(2, ids.second).bind(3, d.tid);
        if (st.step()) {
            d.correlation = st.i64(0);
            d.extra = std::string(toString(static_cast<ApiKind>(st.i32(1)))) + " API";
        }
        launchedActivity(ws, m, d);
        break;
    }
    case EventKind::CpuRange: {
        const auto ids = rowsAt(ws, "cpu_ranges", m.runId, d.rank, d.start);
        Statement st(db,
                     "SELECT correlation, kind, depth FROM cpu_ranges WHERE id >= ? AND id < ? AND tid = ? "
                     "AND end_ns = ? LIMIT 1");
        st.bind(1, ids.first).bind(2, ids.second).bind(3, d.tid).bind(4, d.end);
        if (st.step()) {
            d.correlation = st.i64(0);
            d.extra = std::string(toString(static_cast<CpuRangeKind>(st.i32(1)))) + ", depth " +
                      std::to_string(st.i32(2));
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
