#include "store/RunTimeOrigin.h"

#include "store/Schema.h"
#include "store/Sqlite.h"
#include "store/Workspace.h"

#include <algorithm>
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

} // namespace

Ns runTimeOrigin(const Workspace& ws, RunId runId) {
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
