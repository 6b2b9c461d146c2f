#include "store/ShardSegments.h"

#include "core/InputError.h"
#include "store/Sqlite.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace cnp {

IdRange rankIdRange(const Workspace& store, std::string_view table, IdRange range, std::int32_t rank) {
    if (range.empty())
        return {};
    constexpr auto kMinKey = std::numeric_limits<std::int64_t>::min();
    const std::int64_t first = store.lowerBoundId(table, range, rank, kMinKey);
    const std::int64_t end = rank == std::numeric_limits<std::int32_t>::max()
                                 ? range.last + 1
                                 : store.lowerBoundId(table, range, rank + 1, kMinKey);
    return first < end ? IdRange{first, end - 1} : IdRange{};
}

std::vector<std::pair<std::int32_t, int>> shardRankHolders(int count, const ShardAt& shardAt, RunId runId,
                                                           const std::string& where) {
    std::vector<std::pair<std::int32_t, int>> out;
    for (int k = 0; k < count; ++k) {
        Statement st(shardAt(k).db(), "SELECT rank FROM ranks WHERE run_id = ?");
        st.bind(1, runId);
        while (st.step())
            out.emplace_back(st.i32(0), k);
    }
    std::sort(out.begin(), out.end());
    for (std::size_t i = 1; i < out.size(); ++i)
        if (out[i].first == out[i - 1].first)
            throw InputError(where, "rank " + std::to_string(out[i].first) + " of run id " +
                                        std::to_string(runId.value()) + " is held by two shards (" +
                                        shardAt(out[i - 1].second).file() + " and " +
                                        shardAt(out[i].second).file() + ")");
    return out;
}

std::vector<EventSegment> shardSegments(const std::vector<std::pair<std::int32_t, int>>& holders, int count,
                                        const ShardAt& shardAt, RunId runId, std::string_view table) {
    std::vector<std::optional<IdRange>> ranges(static_cast<std::size_t>(count));
    std::vector<EventSegment> out;
    for (const auto& [rank, k] : holders) {
        const Workspace& s = shardAt(k);
        auto& range = ranges[static_cast<std::size_t>(k)];
        if (!range)
            range = s.eventRows(runId, table);
        const IdRange rows = rankIdRange(s, table, *range, rank);
        if (rows.empty())
            continue;
        if (!out.empty() && out.back().store == &s && out.back().rows.last + 1 == rows.first)
            out.back().rows.last = rows.last;
        else
            out.push_back({&s, rows});
    }
    return out;
}

} // namespace cnp
