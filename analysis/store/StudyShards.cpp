#include "store/StudyShards.h"

#include "core/InputError.h"
#include "store/ShardSegments.h"
#include "store/Sqlite.h"

#include <algorithm>
#include <atomic>
#include <exception>
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

ShardAt StudyShards::shardAt() const {
    return [this](int k) -> const Workspace& { return opened(k); };
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
    return shardRankHolders(count(), shardAt(), runId, folder_.folder().string());
}

std::vector<EventSegment> StudyShards::segments(RunId runId, std::string_view table) const {
    return shardSegments(holders(runId), count(), shardAt(), runId, table);
}

EventSegment StudyShards::storeOf(RunId runId, std::int32_t rank, std::string_view table,
                                  const Workspace* fallback) const {
    for (const auto& [r, k] : holders(runId))
        if (r == rank)
            return {&shard(k), shard(k).eventRows(runId, table)};
    return {fallback, IdRange{}};
}

} // namespace cnp
