#include "metrics/CollectiveEfficiency.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace cnp {

namespace {

// The median of `v` (mean of the two middle values for an even count); nullopt when empty. Reorders v.
std::optional<double> medianOf(std::vector<double>& v) {
    if (v.empty())
        return std::nullopt;
    std::sort(v.begin(), v.end());
    const std::size_t mid = v.size() / 2;
    return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// Whether the call's members are on more than one host. O(members).
bool spansHosts(const CollectiveMatch& m, const CollectiveCall& c,
                const std::unordered_map<std::int32_t, std::size_t>& hostIndex) {
    std::optional<std::size_t> first;
    for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i) {
        const auto it = hostIndex.find(m.members[i].rank);
        if (it == hostIndex.end())
            return c.memberCount > 1; // a rank of unknown host: a host of its own
        if (first && *first != it->second)
            return true;
        first = it->second;
    }
    return false;
}

struct Accumulator {
    CollectiveEfficiencyRow row;
    std::vector<double> busBw, share;
};

} // namespace

std::int64_t sizeBucketOf(std::int64_t bytes) {
    std::int64_t b = 1;
    while (b <= bytes / 4) // b * 4 <= bytes, without overflow
        b *= 4;
    return b;
}

std::vector<CollectiveEfficiencyRow>
collectiveEfficiency(const CollectiveMatch& match,
                     const std::vector<std::pair<std::int32_t, std::string>>& hostOfRank,
                     const FabricPeak& peak) {
    std::unordered_map<std::int32_t, std::size_t> hostIndex;
    std::map<std::string, std::size_t> hostIds;
    for (const auto& [rank, host] : hostOfRank)
        hostIndex[rank] = hostIds.try_emplace(host, hostIds.size()).first->second;

    std::map<std::tuple<CollectiveOp, std::int64_t>, Accumulator> rows;
    for (const auto& c : match.calls) {
        const std::int64_t bucket = c.bytes > 0 ? sizeBucketOf(c.bytes) : -1;
        Accumulator& a = rows[{c.op, bucket}];
        a.row.op = c.op;
        a.row.bucketMinBytes = bucket;
        a.row.bucketMaxBytes = bucket > 0 ? bucket * 4 : -1;
        ++a.row.calls;
        const bool inter = spansHosts(match, c, hostIndex);
        a.row.interNodeCalls += inter ? 1 : 0;
        a.row.waitNs += c.waitNs;
        a.row.transferNs += c.transferNs;
        for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i) {
            const CallMember& m = match.members[i];
            a.row.kernelNs += m.departure - m.arrival;
            a.row.overlappedNs += std::clamp<Ns>(m.overlappedNs, 0, m.departure - m.arrival);
        }
        if (!c.busBwGBs)
            continue;
        a.busBw.push_back(*c.busBwGBs);
        const double p = inter ? peak.interNodeGBs : peak.intraNodeGBs;
        if (p > 0)
            a.share.push_back(*c.busBwGBs / p);
    }
    std::vector<CollectiveEfficiencyRow> out;
    out.reserve(rows.size());
    for (auto& [key, a] : rows) {
        a.row.medianBusBwGBs = medianOf(a.busBw);
        a.row.medianPeakShare = medianOf(a.share);
        out.push_back(a.row);
    }
    return out;
}

} // namespace cnp
