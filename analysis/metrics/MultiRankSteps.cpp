#include "metrics/MultiRankSteps.h"

#include <algorithm>
#include <map>

namespace cnp {

std::vector<MultiRankStep> aggregateSteps(const std::vector<StepSummary>& steps) {
    std::map<std::int32_t, std::vector<const StepSummary*>> byIndex;
    std::map<std::int32_t, int> stepRanks;
    for (const auto& s : steps) {
        stepRanks[s.rank] = 1;
        if (s.hasGpu())
            byIndex[s.index].push_back(&s);
    }
    const auto rankCount = stepRanks.size();
    std::vector<MultiRankStep> out;
    for (const auto& [index, v] : byIndex) {
        if (v.size() != rankCount)
            continue; // a step some rank has no GPU work for: not comparable across ranks
        MultiRankStep m;
        m.index = index;
        m.ranks = static_cast<std::int32_t>(v.size());
        Ns minLen = v.front()->length(), minEnd = v.front()->gpuEnd, maxEnd = v.front()->gpuEnd;
        m.slowest = v.front();
        m.lastToFinishRank = v.front()->rank;
        m.mostExposedCommRank = v.front()->rank;
        m.mostExposedCommNs = v.front()->breakdown.communication;
        for (const auto* s : v) {
            if (s->length() > m.slowest->length())
                m.slowest = s;
            minLen = std::min(minLen, s->length());
            if (s->gpuEnd > maxEnd) {
                maxEnd = s->gpuEnd;
                m.lastToFinishRank = s->rank;
            }
            minEnd = std::min(minEnd, s->gpuEnd);
            if (s->breakdown.communication > m.mostExposedCommNs) {
                m.mostExposedCommNs = s->breakdown.communication;
                m.mostExposedCommRank = s->rank;
            }
        }
        m.name = m.slowest->name;
        m.stepTimeNs = m.slowest->length();
        m.slowestRank = m.slowest->rank;
        m.skewNs = m.stepTimeNs - minLen;
        m.finishSpreadNs = maxEnd - minEnd;
        out.push_back(m);
    }
    return out;
}

} // namespace cnp
