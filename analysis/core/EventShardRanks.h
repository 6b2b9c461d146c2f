#pragma once
// Where the events of a run added from summary files are (docs/schema.md, run attributes
// `events.shard_ranks` and `events.fetched`; docs/launcher.md "Events on demand"): the ranks of each of the
// run's shards, in shard order, and which shards were fetched and linked into the workspace.
// Both attributes are workspace content, read as hostile: a text that is not exactly the form written here
// reads as absent (std::nullopt), and every number is bounded.
//   events.shard_ranks  "0-7;8-15;16,18-20": shards separated by ';', each a ','-list of ranks or
//                       inclusive ranges, every rank >= 0 and all of them strictly ascending
//   events.fetched      "0,3,5": shard numbers, strictly ascending, each below the shard count
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

class EventShardRanks {
public:
    static constexpr int kMaxShards = 1024;               // as a study folder's (store/StudyFolder.h)
    static constexpr std::int64_t kMaxRanks = 1 << 20;    // per run, over all shards
    static constexpr std::size_t kMaxTextBytes = 1 << 20; // of either attribute

    EventShardRanks() = default;
    // `shards`: the ranks of each shard; throws std::invalid_argument when they are not >= 0 and strictly
    // ascending over all shards, or exceed the bounds above.
    explicit EventShardRanks(std::vector<std::vector<std::int32_t>> shards);

    static std::optional<EventShardRanks> parse(std::string_view text);
    std::string text() const;

    int shardCount() const { return static_cast<int>(shards_.size()); }
    const std::vector<std::int32_t>& ranksOf(int shard) const {
        return shards_.at(static_cast<std::size_t>(shard));
    }
    // The shard holding `rank`, -1 when none does. O(log ranks).
    int shardOf(std::int32_t rank) const;

private:
    std::vector<std::vector<std::int32_t>> shards_;
    std::vector<std::pair<std::int32_t, int>> byRank_; // (rank, shard), ascending
};

// events.fetched: nullopt unless strictly ascending numbers in [0, shardCount).
std::optional<std::vector<int>> parseShardList(std::string_view text, int shardCount);
std::string shardListText(const std::vector<int>& shards);

} // namespace cnp
