#include "ingest/RankAssigner.h"

#include "core/InputError.h"

namespace cnp {

void RankAssigner::renumberRank(TraceData& part, std::int32_t old, std::int32_t fresh) {
    auto move = [&](auto& v) {
        for (auto& e : v)
            if (e.rank == old)
                e.rank = fresh;
    };
    move(part.kernels), move(part.memcpys), move(part.memsets), move(part.apiCalls), move(part.cpuRanges);
    move(part.gpuAnnotations), move(part.flows), move(part.counters), move(part.steps), move(part.ranks);
    move(part.collectiveArgs);
}

std::optional<std::pair<std::int32_t, std::int32_t>> RankAssigner::assign(TraceData& part,
                                                                          const std::string& file) {
    for (const auto& r : part.ranks) {
        const auto it = claimedBy_.find(r.rank);
        if (r.rankClaimed && it != claimedBy_.end())
            throw InputError(file,
                             "claims rank " + std::to_string(r.rank) + ", as " + it->second +
                                 " does: two traces of one rank (an earlier attempt's files mixed in?); "
                                 "ingest the files of one attempt");
    }
    std::set<std::int32_t> partRanks;
    for (const auto& r : part.ranks)
        partRanks.insert(r.rank);
    bool clash = false;
    for (auto r : partRanks)
        clash = clash || ranksSeen_.count(r);
    std::optional<std::pair<std::int32_t, std::int32_t>> renumbered;
    if (clash && partRanks.size() == 1) {
        const std::int32_t fresh = *ranksSeen_.rbegin() + 1;
        renumberRank(part, *partRanks.begin(), fresh);
        renumbered.emplace(*partRanks.begin(), fresh);
        partRanks = {fresh};
    } else if (clash) {
        throw InputError(file, "its ranks repeat ranks of an earlier file of this run");
    }
    for (const auto& r : part.ranks)
        if (r.rankClaimed)
            claimedBy_.emplace(r.rank, file);
    ranksSeen_.insert(partRanks.begin(), partRanks.end());
    return renumbered;
}

} // namespace cnp
