#include "core/EventShardRanks.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace cnp {

namespace {

// A decimal number without sign or leading zeros (but "0") in [0, max]; nullopt otherwise.
std::optional<std::int64_t> number(std::string_view s, std::int64_t max) {
    if (s.empty() || s.size() > 10 || (s.size() > 1 && s[0] == '0'))
        return std::nullopt;
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 0 || v > max)
        return std::nullopt;
    return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    for (std::size_t at = 0;;) {
        const std::size_t next = s.find(sep, at);
        out.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
        if (next == std::string_view::npos)
            return out;
        at = next + 1;
    }
}

// "a" or "a-b" (a < b) appended to `out` when above out's last rank; false otherwise or past kMaxRanks.
bool appendItem(std::string_view item, std::vector<std::int32_t>& out, std::int32_t& last,
                std::int64_t& count) {
    constexpr std::int64_t kMaxRank = std::numeric_limits<std::int32_t>::max();
    const std::size_t dash = item.find('-');
    const auto first = number(item.substr(0, dash), kMaxRank);
    const auto end = dash == std::string_view::npos ? first : number(item.substr(dash + 1), kMaxRank);
    if (!first || !end || *end < *first || (dash != std::string_view::npos && *end == *first) ||
        *first <= last)
        return false;
    count += *end - *first + 1;
    if (count > EventShardRanks::kMaxRanks)
        return false;
    for (std::int64_t r = *first; r <= *end; ++r)
        out.push_back(static_cast<std::int32_t>(r));
    last = static_cast<std::int32_t>(*end);
    return true;
}

} // namespace

EventShardRanks::EventShardRanks(std::vector<std::vector<std::int32_t>> shards) : shards_(std::move(shards)) {
    if (shards_.empty() || shards_.size() > static_cast<std::size_t>(kMaxShards))
        throw std::invalid_argument("events.shard_ranks: 1 to 1024 shards");
    std::int64_t last = -1;
    for (std::size_t k = 0; k < shards_.size(); ++k) {
        if (shards_[k].empty())
            throw std::invalid_argument("events.shard_ranks: a shard without ranks");
        for (const std::int32_t r : shards_[k]) {
            if (r <= last)
                throw std::invalid_argument("events.shard_ranks: ranks not >= 0 and ascending");
            last = r;
            byRank_.emplace_back(r, static_cast<int>(k));
        }
    }
    if (static_cast<std::int64_t>(byRank_.size()) > kMaxRanks)
        throw std::invalid_argument("events.shard_ranks: more than 2^20 ranks");
}

std::optional<EventShardRanks> EventShardRanks::parse(std::string_view text) {
    if (text.empty() || text.size() > kMaxTextBytes)
        return std::nullopt;
    std::vector<std::vector<std::int32_t>> shards;
    std::int32_t last = -1;
    std::int64_t count = 0;
    for (const std::string_view shard : split(text, ';')) {
        if (shards.size() == static_cast<std::size_t>(kMaxShards))
            return std::nullopt;
        shards.emplace_back();
        for (const std::string_view item : split(shard, ','))
            if (!appendItem(item, shards.back(), last, count))
                return std::nullopt;
    }
    return EventShardRanks(std::move(shards));
}

std::string EventShardRanks::text() const {
    std::string out;
    for (std::size_t k = 0; k < shards_.size(); ++k) {
        if (k > 0)
            out += ';';
        const auto& v = shards_[k];
        for (std::size_t i = 0; i < v.size();) {
            std::size_t j = i;
            while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
                ++j;
            if (i > 0)
                out += ',';
            out += std::to_string(v[i]);
            if (j > i)
                out += '-' + std::to_string(v[j]);
            i = j + 1;
        }
    }
    return out;
}

int EventShardRanks::shardOf(std::int32_t rank) const {
    const auto it = std::lower_bound(byRank_.begin(), byRank_.end(), std::pair{rank, -1});
    return it != byRank_.end() && it->first == rank ? it->second : -1;
}

std::optional<std::vector<int>> parseShardList(std::string_view text, int shardCount) {
    std::vector<int> out;
    if (text.empty())
        return out;
    if (text.size() > EventShardRanks::kMaxTextBytes)
        return std::nullopt;
    for (const std::string_view item : split(text, ',')) {
        const auto k = number(item, shardCount - 1);
        if (!k || (!out.empty() && *k <= out.back()))
            return std::nullopt;
        out.push_back(static_cast<int>(*k));
    }
    return out;
}

std::string shardListText(const std::vector<int>& shards) {
    std::string out;
    for (const int k : shards)
        out += (out.empty() ? "" : ",") + std::to_string(k);
    return out;
}

} // namespace cnp
