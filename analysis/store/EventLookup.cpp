#include "store/EventLookup.h"

#include "store/Schema.h"
#include "store/Workspace.h"

#include <limits>
#include <string>

namespace cnp {

EventLookup::Rows EventLookup::rows(std::string_view table, std::int32_t rank,
                                    std::optional<std::int64_t> key) const {
    const EventSegment at = ws_.eventStoreOf(runId_, rank, table);
    const Workspace& s = *at.store;
    if (key)
        return {s.db(), s.lowerBoundId(table, at.rows, rank, *key),
                s.lowerBoundId(table, at.rows, rank, *key + 1)};
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    return {s.db(), s.lowerBoundId(table, at.rows, rank, kMin),
            s.lowerBoundId(table, at.rows, rank + 1, kMin)};
}

std::optional<EventLookup::Kernel> EventLookup::kernelAt(std::int32_t rank, Ns start, std::int32_t device,
                                                         std::int64_t stream, Ns end) const {
    const auto ids = rows("kernels", rank, start);
    Statement st(ids.db, "SELECT correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, "
                         "static_smem, dynamic_smem FROM kernels WHERE id >= ? AND id < ? AND device = ? AND "
                         "stream = ? AND end_ns = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, device).bind(4, stream).bind(5, end);
    if (!st.step())
        return std::nullopt;
    Kernel k;
    k.correlation = st.i64(0);
    for (int i = 0; i < 3; ++i) {
        k.grid[i] = st.i32(1 + i);
        k.block[i] = st.i32(4 + i);
    }
    k.registers = st.i32(7);
    k.staticSmem = st.i32(8);
    k.dynamicSmem = st.i32(9);
    return k;
}

std::optional<EventLookup::Memory> EventLookup::memoryAt(EventKind kind, std::int32_t rank, Ns start,
                                                         std::int32_t device, std::int64_t stream) const {
    const bool cpy = kind == EventKind::Memcpy;
    const auto ids = rows(schema::eventTableOf(kind), rank, start);
    Statement st(ids.db,
                 cpy ? "SELECT correlation, bytes, copy_kind FROM memcpys WHERE id >= ? AND id < ? AND "
                       "device = ? AND stream = ? LIMIT 1"
                     : "SELECT correlation, bytes, value FROM memsets WHERE id >= ? AND id < ? AND "
                       "device = ? AND stream = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, device).bind(4, stream);
    if (!st.step())
        return std::nullopt;
    return Memory{st.i64(0), st.i64(1), st.i32(2)};
}

std::optional<EventLookup::ApiCall> EventLookup::apiCallAt(std::int32_t rank, Ns start,
                                                           std::int64_t tid) const {
    const auto ids = rows("api_calls", rank, start);
    Statement st(ids.db,
                 "SELECT correlation, kind FROM api_calls WHERE id >= ? AND id < ? AND tid = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, tid);
    if (!st.step())
        return std::nullopt;
    return ApiCall{st.i64(0), st.i32(1)};
}

std::optional<EventLookup::CpuRange> EventLookup::cpuRangeAt(std::int32_t rank, Ns start, std::int64_t tid,
                                                             Ns end) const {
    const auto ids = rows("cpu_ranges", rank, start);
    Statement st(ids.db,
                 "SELECT correlation, kind, depth FROM cpu_ranges WHERE id >= ? AND id < ? AND tid = ? "
                 "AND end_ns = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, tid).bind(4, end);
    if (!st.step())
        return std::nullopt;
    return CpuRange{st.i64(0), st.i32(1), st.i32(2)};
}

std::optional<EventLookup::Flow> EventLookup::flow(std::int32_t rank, std::int64_t correlation) const {
    const auto ids = rows("flows", rank, correlation);
    Statement st(ids.db, "SELECT cpu_ns, gpu_ns, tid, stream FROM flows WHERE id >= ? AND id < ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second);
    if (!st.step())
        return std::nullopt;
    return Flow{st.i64(0), st.i64(1), st.i64(2), st.i64(3)};
}

std::optional<EventLookup::Linked> EventLookup::apiCallOf(std::int32_t rank, std::int64_t correlation,
                                                          std::optional<Ns> start) const {
    const auto ids = rows("api_calls", rank, start);
    Statement st(ids.db, "SELECT start_ns, end_ns, tid, name_id FROM api_calls WHERE id >= ? AND id < ? "
                         "AND correlation = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, correlation);
    if (!st.step())
        return std::nullopt;
    return Linked{st.i64(0), st.i64(1), st.i64(2), st.i64(3)};
}

std::optional<EventLookup::Linked> EventLookup::activityOf(EventKind kind, std::int32_t rank,
                                                           std::int64_t correlation,
                                                           std::optional<Ns> start) const {
    // A fixed table name (kind is one of kGpuActivityKinds): no caller text reaches the SQL.
    const std::string_view table = schema::eventTableOf(kind);
    const auto ids = rows(table, rank, start);
    Statement st(ids.db, "SELECT start_ns, end_ns, stream, name_id FROM " + std::string(table) +
                             " WHERE id >= ? AND id < ? AND correlation = ? LIMIT 1");
    st.bind(1, ids.first).bind(2, ids.second).bind(3, correlation);
    if (!st.step())
        return std::nullopt;
    return Linked{st.i64(0), st.i64(1), st.i64(2), st.i64(3)};
}

} // namespace cnp
