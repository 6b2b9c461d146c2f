#include "store/KernelOccurrenceQueries.h"

#include "store/Workspace.h"

#include <algorithm>
#include <tuple>

namespace cnp {

namespace {

// Appends the segment's occurrences of the name in (start, id) order, at most `limit`.
void readSegment(const EventSegment& seg, const std::string& kernelName, std::int32_t rank, std::size_t limit,
                 std::vector<KernelOccurrence>& out) {
    Statement st(seg.store->db(),
                 "SELECT k.rank, k.device, k.stream, k.start_ns, k.end_ns, k.grid_x, k.grid_y, k.grid_z, "
                 "k.block_x, k.block_y, k.block_z, k.registers, k.static_smem, k.dynamic_smem FROM kernels k "
                 "WHERE k.id BETWEEN ?1 AND ?5 AND "
                 "k.name_id = (SELECT id FROM strings WHERE value = ?2) AND (?3 < 0 OR k.rank = ?3) "
                 "ORDER BY k.start_ns, k.id LIMIT ?4");
    st.bind(1, seg.rows.first)
        .bind(2, std::string_view(kernelName))
        .bind(3, rank)
        .bind(4, std::int64_t(limit));
    st.bind(5, seg.rows.last);
    while (st.step()) {
        KernelOccurrence o;
        o.rank = st.i32(0);
        o.device = st.i32(1);
        o.stream = st.i64(2);
        o.start = st.i64(3);
        o.end = st.i64(4);
        for (int i = 0; i < 3; ++i) {
            o.grid[i] = st.i32(5 + i);
            o.block[i] = st.i32(8 + i);
        }
        o.registers = st.i32(11);
        o.staticSmem = st.i64(12);
        o.dynamicSmem = st.i64(13);
        out.push_back(o);
    }
}

} // namespace

std::vector<KernelOccurrence> KernelOccurrenceQueries::occurrences(RunId runId, const std::string& kernelName,
                                                                   std::int32_t rank,
                                                                   std::size_t limit) const {
    std::vector<KernelOccurrence> out;
    if (rank >= 0) {
        const EventSegment at = ws_.eventStoreOf(runId, rank, "kernels");
        if (!at.rows.empty())
            readSegment(at, kernelName, rank, limit, out);
        return out;
    }
    // Segments come in rank order and ids grow with rank within one, so a stable sort by start keeps the
    // single file's (start, id) order among equal starts.
    for (const EventSegment& seg : ws_.eventSegments(runId, "kernels"))
        readSegment(seg, kernelName, rank, limit, out);
    std::stable_sort(out.begin(), out.end(), [](const KernelOccurrence& a, const KernelOccurrence& b) {
        return std::tie(a.start, a.rank) < std::tie(b.start, b.rank);
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

} // namespace cnp
