#include "timeline/EventDetails.h"

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

void launchingCall(const Workspace& ws, const TimelineModel& m, EventDetails& d) {
    if (d.correlation == 0)
        return;
    sqlite3* db = ws.db();
    Ns cpu = -1;
    std::int64_t tid = -1;
    {
        Statement st(
            db, "SELECT cpu_ns, tid FROM flows WHERE run_id = ? AND rank = ? AND correlation = ? LIMIT 1");
        st.bind(1, m.runId).bind(2, d.rank).bind(3, d.correlation);
        if (st.step()) {
            cpu = st.i64(0);
            tid = st.i64(1);
        }
    }
    Statement st(
        db, cpu >= 0 ? "SELECT start_ns, end_ns, tid, name_id FROM api_calls WHERE run_id = ? AND rank = ? "
                       "AND start_ns = ? AND correlation = ? LIMIT 1"
                     : "SELECT start_ns, end_ns, tid, name_id FROM api_calls WHERE run_id = ? AND rank = ? "
                       "AND correlation = ? LIMIT 1");
    st.bind(1, m.runId).bind(2, d.rank);
    if (cpu >= 0)
        st.bind(3, cpu).bind(4, d.correlation);
    else
        st.bind(3, d.correlation);
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
    Statement fl(
        db, "SELECT gpu_ns, stream FROM flows WHERE run_id = ? AND rank = ? AND correlation = ? LIMIT 1");
    fl.bind(1, m.runId).bind(2, d.rank).bind(3, d.correlation);
    const char* tables[] = {"kernels", "memcpys", "memsets"};
    if (fl.step()) {
        const Ns gpu = fl.i64(0);
        for (const char* t : tables) {
            Statement st(db,
                         std::string("SELECT start_ns, end_ns, stream, name_id FROM ") + t +
                             " WHERE run_id = ? AND rank = ? AND start_ns = ? AND correlation = ? LIMIT 1");
            st.bind(1, m.runId).bind(2, d.rank).bind(3, gpu).bind(4, d.correlation);
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
        Statement st(db, std::string("SELECT start_ns, end_ns, stream, name_id FROM ") + t +
                             " WHERE run_id = ? AND rank = ? AND correlation = ? LIMIT 1");
        st.bind(1, m.runId).bind(2, d.rank).bind(3, d.correlation);
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
        Statement st(db,
                     "SELECT correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, "
                     "static_smem, dynamic_smem FROM kernels WHERE run_id = ? AND rank = ? AND start_ns = ? "
                     "AND device = ? AND stream = ? AND end_ns = ? LIMIT 1");
        st.bind(1, m.runId)
            .bind(2, d.rank)
            .bind(3, d.start)
            .bind(4, d.device)
            .bind(5, d.stream)
            .bind(6, d.end);
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
        Statement st(
            db, cpy ? "SELECT correlation, bytes, copy_kind FROM memcpys WHERE run_id = ? AND rank = ? AND "
                      "start_ns = ? AND device = ? AND stream = ? LIMIT 1"
                    : "SELECT correlation, bytes, value FROM memsets WHERE run_id = ? AND rank = ? AND "
                      "start_ns = ? AND device = ? AND stream = ? LIMIT 1");
        st.bind(1, m.runId).bind(2, d.rank).bind(3, d.start).bind(4, d.device).bind(5, d.stream);
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
        Statement st(db,
                     "SELECT correlation, kind FROM api_calls WHERE run_id = ? AND rank = ? AND start_ns = ? "
                     "AND tid = ? LIMIT 1");
        st.bind(1, m.runId).bind(2, d.rank).bind(3, d.start).bind(4, d.tid);
        if (st.step()) {
            d.correlation = st.i64(0);
            d.extra = std::string(toString(static_cast<ApiKind>(st.i32(1)))) + " API";
        }
        launchedActivity(ws, m, d);
        break;
    }
    case EventKind::CpuRange: {
        Statement st(db, "SELECT correlation, kind, depth FROM cpu_ranges WHERE run_id = ? AND rank = ? AND "
                         "start_ns = ? AND tid = ? AND end_ns = ? LIMIT 1");
        st.bind(1, m.runId).bind(2, d.rank).bind(3, d.start).bind(4, d.tid).bind(5, d.end);
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
