#include "store/StudyShards.h"

#include "core/InputError.h"
#include "store/Sqlite.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace cnp {

StudyShards::StudyShards(StudyFolder folder, Workspace::Mode mode)
    : folder_(std::move(folder)), mode_(mode), shards_(static_cast<std::size_t>(folder_.shardCount())) {
    if (mode_ != Workspace::Mode::ReadOnly)
        for (int k = 0; k < count(); ++k)
            opened(k);
}

StudyShards::~StudyShards() = default;

Workspace& StudyShards::opened(int k) const {
    auto& s = shards_.at(static_cast<std::size_t>(k));
    if (!s) {
        s = std::make_unique<Workspace>(folder_.shardPath(k), mode_);
        if (mode_ != Workspace::Mode::ReadOnly)
            execSql(s->db(), "PRAGMA wal_autocheckpoint=0");
    }
    return *s;
}

const Workspace& StudyShards::shard(int k) const {
    return opened(k);
}

Workspace& StudyShards::shard(int k) {
    return opened(k);
}

void StudyShards::checkpoint(unsigned threads) {
    std::atomic<int> next{0};
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count()));
    auto work = [&] {
        for (int k; (k = next++) < count();) {
            try {
                execSql(shard(k).db(), "PRAGMA wal_checkpoint(PASSIVE)");
            } catch (...) {
                errors[static_cast<std::size_t>(k)] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<unsigned>(std::max(threads, 1U), static_cast<unsigned>(count())); ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

std::vector<std::pair<std::int32_t, int>> StudyShards::holders(RunId runId) const {
    std::vector<std::pair<std::int32_t, int>> out;
    for (int k = 0; k < count(); ++k) {
        Statement st(shard(k).db(), "SELECT rank FROM ranks WHERE run_id = ?");
        st.bind(1, runId);
        while (st.step())
            out.emplace_back(st.i32(0), k);
    }
    std::sort(out.begin(), out.end());
    for (std::size_t i = 1; i < out.size(); ++i)
        if (out[i].first == out[i - 1].first)
            throw InputError(folder_.folder().string(), "rank " + std::to_string(out[i].first) +
                                                            " of run id " + std::to_string(runId.value()) +
                                                            " is held by two shards (" +
                                                            shard(out[i - 1].second).file() + " and " +
                                                            shard(out[i].second).file() + ")");
    return out;
}

std::vector<EventSegment> StudyShards::segments(RunId runId, std::string_view table) const {
    constexpr auto kMinKey = std::numeric_limits<std::int64_t>::min();
    std::vector<std::optional<IdRange>> ranges(static_cast<std::size_t>(count()));
    std::vector<EventSegment> out;
    for (const auto& [rank, k] : holders(runId)) {
        const Workspace& s = shard(k);
        auto& range = ranges[static_cast<std::size_t>(k)];
        if (!range)
            range = s.eventRows(runId, table);
        if (range->empty())
            continue;
        const std::int64_t first = s.lowerBoundId(table, *range, rank, kMinKey);
        const std::int64_t end = rank == std::numeric_limits<std::int32_t>::max()
                                     ? range->last + 1
                                     : s.lowerBoundId(table, *range, rank + 1, kMinKey);
        if (first >= end)
            continue;
        if (!out.empty() && out.back().store == &s && out.back().rows.last + 1 == first)
            out.back().rows.last = end - 1;
        else
            out.push_back({&s, IdRange{first, end - 1}});
    }
    return out;
}

EventSegment StudyShards::storeOf(RunId runId, std::int32_t rank, std::string_view table,
                                  const Workspace* fallback) const {
    for (const auto& [r, k] : holders(runId))
        if (r == rank)
            return {&shard(k), shard(k).eventRows(runId, table)};
    return {fallback, IdRange{}};
}

} // namespace cnp
