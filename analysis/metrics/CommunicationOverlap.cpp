#include "metrics/CommunicationOverlap.h"

#include <algorithm>

namespace cnp {

namespace {

// Sorts and merges in place into disjoint intervals in start order (touching ones joined).
void mergeIntervals(std::vector<std::pair<Ns, Ns>>& v) {
    std::erase_if(v, [](const auto& i) { return i.second < i.first; });
    std::sort(v.begin(), v.end());
    std::size_t out = 0;
    for (const auto& i : v) {
        if (out > 0 && i.first <= v[out - 1].second)
            v[out - 1].second = std::max(v[out - 1].second, i.second);
        else
            v[out++] = i;
    }
    v.resize(out);
}

} // namespace

void setCommunicationOverlap(RankCollectives& rank, std::vector<std::pair<Ns, Ns>> compute) {
    mergeIntervals(compute);
    for (auto& k : rank.kernels) {
        k.overlappedNs = 0;
        // The first merged interval ending after k starts; the following ones until one starts at k's end.
        auto it = std::upper_bound(compute.begin(), compute.end(), k.start,
                                   [](Ns t, const std::pair<Ns, Ns>& i) { return t < i.second; });
        for (; it != compute.end() && it->first < k.end; ++it)
            k.overlappedNs += std::min(k.end, it->second) - std::max(k.start, it->first);
    }
}

} // namespace cnp
