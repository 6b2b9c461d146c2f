#include "store/CollectiveKernelQueries.h"

#include "core/CollectiveArgs.h"
#include "store/ConnectionMemory.h"
#include "store/SummaryTables.h"
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

std::map<std::pair<std::int64_t, Ns>, CollectiveKernel>
CollectiveKernelQueries::argsOf(const Workspace& store, std::int32_t rank) {
    std::map<std::pair<std::int64_t, Ns>, CollectiveKernel> out;
    if (!hasTable(store, "collective_args"))
        return out;
    Statement st(store.db(),
                 "SELECT stream, start_ns, op_id, in_nelems, out_nelems, dtype_bytes, group_size, "
                 "pg_name_id FROM collective_args WHERE run_id = ? AND rank = ?");
    st.bind(1, runId_).bind(2, rank);
    while (st.step()) {
        CollectiveArgs a;
        a.inNelems = collectiveNelems(st.i64(3));
        a.outNelems = collectiveNelems(st.i64(4));
        const std::int64_t dtypeBytes = st.i64(5);
        a.dtypeBytes = dtypeBytes > 0 && dtypeBytes <= 16 ? static_cast<std::int32_t>(dtypeBytes) : 0;
        CollectiveKernel k;
        k.bytes = a.bytes();
        k.groupSize = collectiveGroupSize(st.i64(6));
        const std::int64_t op = st.i64(2), group = st.i64(7);
        k.argOp = op > 0 ? nameIndexOf(op) + 1 : 0;
        k.group = group > 0 ? nameIndexOf(group) + 1 : 0;
        out.emplace(std::pair(st.i64(0), st.i64(1)), k);
    }
    return out;
}

RankCollectives CollectiveKernelQueries::rankKernels(std::int32_t rank,
                                                     std::vector<std::pair<Ns, Ns>>* compute) {
    RankCollectives out;
    out.rank = rank;
    if (!categoryId_ && !compute)
        return out;
    const EventSegment at = ws_.eventStoreOf(runId_, rank, "kernels");
    if (at.rows.empty())
        return out;
    const Workspace& s = *at.store;
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    const std::int64_t first = s.lowerBoundId("kernels", at.rows, rank, kMin);
    const std::int64_t end = s.lowerBoundId("kernels", at.rows, rank + 1, kMin);
    // With `compute`, every row of the rank (in id = start order), flagged by category; else only the
    // category's (then it is known: see above).
    Statement st(s.db(), compute
                             ? "SELECT id, stream, start_ns, end_ns, name_id, category_id IS ? FROM kernels "
                               "WHERE id >= ? AND id < ? ORDER BY id"
                             : "SELECT id, stream, start_ns, end_ns, name_id, 1 FROM kernels "
                               "WHERE id >= ? AND id < ? AND category_id = ?");
    const int categoryAt = compute ? 1 : 3, rangeAt = compute ? 2 : 1;
    if (categoryId_)
        st.bind(categoryAt, *categoryId_);
    else
        st.bindNull(categoryAt);
    st.bind(rangeAt, first).bind(rangeAt + 1, end);
    const auto args = categoryId_ ? argsOf(s, rank) : decltype(argsOf(s, rank)){};
    while (st.step()) {
        CollectiveKernel k;
        k.start = st.i64(2);
        k.end = st.i64(3);
        if (k.end < k.start)
            continue;
        if (!categoryId_ || st.i64(5) == 0) {
            compute->emplace_back(k.start, k.end);
            continue;
        }
        k.id = st.i64(0);
        k.stream = st.i64(1);
        k.nameIndex = nameIndexOf(st.i64(4));
        if (const auto a = args.find({k.stream, k.start}); a != args.end()) {
            k.bytes = a->second.bytes;
            k.group = a->second.group;
            k.argOp = a->second.argOp;
            k.groupSize = a->second.groupSize;
            anyArgs_ = true;
        }
        out.kernels.push_back(k);
    }
    // A study's shard: its connection's page cache is given back, so that reading a few ranks of every
    // shard (the clock fit, the collectives) holds one shard's cache, not one per shard read.
    if (&s != &ws_)
        releaseCacheMemory(s);
    return out;
}

} // namespace cnp
