#include "store/KernelOccurrenceQueries.h"

#include "store/Workspace.h"

namespace cnp {

std::vector<KernelOccurrence> KernelOccurrenceQueries::occurrences(RunId runId, const std::string& kernelName,
                                                                   std::int32_t rank,
                                                                   std::size_t limit) const {
    std::vector<KernelOccurrence> out;
    Statement st(ws_.db(),
                 "SELECT k.rank, k.device, k.stream, k.start_ns, k.end_ns, k.grid_x, k.grid_y, k.grid_z, "
                 "k.block_x, k.block_y, k.block_z, k.registers, k.static_smem, k.dynamic_smem FROM kernels k "
                 "WHERE k.id BETWEEN ?1 AND ?5 AND "
                 "k.name_id = (SELECT id FROM strings WHERE value = ?2) AND (?3 < 0 OR k.rank = ?3) "
                 "ORDER BY k.start_ns LIMIT ?4");
    const IdRange rows = ws_.eventRows(runId, "kernels");
    st.bind(1, rows.first).bind(2, std::string_view(kernelName)).bind(3, rank).bind(4, std::int64_t(limit));
    st.bind(5, rows.last);
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
    return out;
}

} // namespace cnp
