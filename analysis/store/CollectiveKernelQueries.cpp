#include "store/CollectiveKernelQueries.h"

#include "store/Workspace.h"

#include <limits>

namespace cnp {

CollectiveKernelQueries::CollectiveKernelQueries(const Workspace& ws, RunId runId,
                                                 const std::string& category)
    : ws_(ws), runId_(runId) {
    Statement st(ws.db(), "SELECT id FROM strings WHERE value = ?");
    st.bind(1, std::string_view(category));
    if (st.step())
        categoryId_ = st.i64(0);
}

std::uint32_t CollectiveKernelQueries::nameIndexOf(std::int64_t nameId) {
    const auto [it, added] = nameIndex_.try_emplace(nameId, static_cast<std::uint32_t>(names_.size()));
    if (added)
        names_.push_back(ws_.stringById(nameId));
    return it->second;
}

RankCollectives CollectiveKernelQueries::rankKernels(std::int32_t rank) {
    RankCollectives out;
    out.rank = rank;
    if (!categoryId_)
        return out;
    const EventSegment at = ws_.eventStoreOf(runId_, rank, "kernels");
    if (at.rows.empty())
        return out;
    const Workspace& s = *at.store;
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    const std::int64_t first = s.lowerBoundId("kernels", at.rows, rank, kMin);
    const std::int64_t end = s.lowerBoundId("kernels", at.rows, rank + 1, kMin);
    Statement st(s.db(), "SELECT id, stream, start_ns, end_ns, name_id FROM kernels "
                         "WHERE id >= ? AND id < ? AND category_id = ?");
    st.bind(1, first).bind(2, end).bind(3, *categoryId_);
    while (st.step()) {
        CollectiveKernel k;
        k.id = st.i64(0);
        k.stream = st.i64(1);
        k.start = st.i64(2);
        k.end = st.i64(3);
        if (k.end < k.start)
            continue;
        k.nameIndex = nameIndexOf(st.i64(4));
        out.kernels.push_back(k);
    }
    return out;
}

} // namespace cnp
