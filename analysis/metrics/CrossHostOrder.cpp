#include "metrics/CrossHostOrder.h"

#include <map>
#include <unordered_map>

namespace cnp {

std::vector<std::uint8_t>
uncertainLastArrivals(const CollectiveMatch& match,
                      const std::vector<std::pair<std::int32_t, std::string>>& hostOfRank, Ns errorNs) {
    std::unordered_map<std::int32_t, std::int64_t> hostOf; // rank -> host number; unknown: -1 - rank
    std::map<std::string, std::int64_t> hostIds;
    for (const auto& [rank, host] : hostOfRank)
        hostOf[rank] = hostIds.try_emplace(host, static_cast<std::int64_t>(hostIds.size())).first->second;
    auto hostNumber = [&](std::int32_t rank) {
        const auto it = hostOf.find(rank);
        return it != hostOf.end() ? it->second : -1 - std::int64_t(rank);
    };
    std::vector<std::uint8_t> out(match.calls.size(), 0);
    for (std::size_t c = 0; c < match.calls.size(); ++c) {
        const CollectiveCall& call = match.calls[c];
        const std::int64_t lastHost = hostNumber(call.lastRank);
        for (std::size_t i = call.firstMember; i < call.firstMember + call.memberCount; ++i) {
            const CallMember& m = match.members[i];
            if (m.rank != call.lastRank && hostNumber(m.rank) != lastHost &&
                call.lastArrival - m.arrival <= errorNs) {
                out[c] = 1;
                break;
            }
        }
    }
    return out;
}

} // namespace cnp
