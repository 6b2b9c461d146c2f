#include "store/RunTimeOrigin.h"

#include "core/RunAttributeKeys.h"
#include "core/TimeBounds.h"
#include "store/Schema.h"
#include "store/Sqlite.h"
#include "store/Workspace.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace cnp {

namespace {

std::optional<Ns> minOver(const Workspace& ws, RunId runId, std::string_view table, const char* column) {
    std::optional<Ns> least;
    for (const EventSegment& seg : ws.eventSegments(runId, table)) {
        Statement st(seg.store->db(), std::string("SELECT MIN(") + column + ") FROM " + std::string(table) +
                                          " WHERE id BETWEEN ? AND ?");
        st.bind(1, seg.rows.first).bind(2, seg.rows.last);
        if (st.step() && !st.isNull(0))
            least = least ? std::min(*least, st.i64(0)) : st.i64(0);
    }
    return least;
}

// A run added from summary files records its origin (events.origin_ns): its events may be partly here.
std::optional<Ns> recordedOrigin(const Workspace& ws, RunId runId) {
    if (!ws.runAttribute(runId, kEventsElsewhereAttribute))
        return std::nullopt;
    const auto text = ws.runAttribute(runId, kEventsOriginAttribute);
    Ns v = 0;
    if (!text || text->empty())
        return std::nullopt;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc() || end != text->data() + text->size() || v < -kMaxTraceTimeNs ||
        v > kMaxTraceTimeNs)
        return std::nullopt;
    return v;
}

} // namespace

Ns runTimeOrigin(const Workspace& ws, RunId runId) {
    if (const auto recorded = recordedOrigin(ws, runId))
        return *recorded;
    std::optional<Ns> origin;
    auto take = [&](std::optional<Ns> v) {
        if (v)
            origin = origin ? std::min(*origin, *v) : *v;
    };
    for (std::string_view table : schema::spanEventTables())
        take(minOver(ws, runId, table, "start_ns"));
    take(minOver(ws, runId, "counters", "ts_ns"));
    // The steps row draws a step from its GPU start when it has one, else from its CPU start.
    Statement st(ws.db(), "SELECT MIN(CASE WHEN gpu_start_ns >= 0 THEN gpu_start_ns ELSE cpu_start_ns END) "
                          "FROM steps WHERE run_id = ?");
    st.bind(1, runId);
    if (st.step() && !st.isNull(0))
        take(st.i64(0));
    return origin.value_or(0);
}

} // namespace cnp
