#include "metrics/RankStepGrid.h"

#include <algorithm>
#include <map>

namespace cnp {

const char* toString(RankStepFigure f) {
    switch (f) {
    case RankStepFigure::StepTime:
        return "step time";
    case RankStepFigure::Compute:
        return "compute";
    case RankStepFigure::ExposedCommunication:
        return "exposed communication";
    case RankStepFigure::Idle:
        return "idle";
    }
    return "";
}

double RankStepGrid::rankMean(RankStepFigure f, std::size_t rank) const {
    if (steps.empty())
        return 0;
    double sum = 0;
    for (std::size_t s = 0; s < steps.size(); ++s)
        sum += static_cast<double>(value(f, rank, s));
    return sum / static_cast<double>(steps.size());
}

int RankStepGrid::stragglerCount(std::size_t rank) const {
    return static_cast<int>(std::count(stragglerRank.begin(), stragglerRank.end(), ranks[rank]));
}

RankStepGrid computeRankStepGrid(const std::vector<StepSummary>& steps) {
    RankStepGrid g;
    std::map<std::int32_t, std::map<std::int32_t, const StepSummary*>> byStep; // step -> rank -> summary
    std::map<std::int32_t, bool> rankSet;
    for (const auto& s : steps)
        if (s.hasGpu()) {
            byStep[s.index][s.rank] = &s;
            rankSet[s.rank] = true;
        }
    for (const auto& [r, unused] : rankSet)
        g.ranks.push_back(r);
    for (const auto& [index, ranks] : byStep)
        if (ranks.size() == g.ranks.size())
            g.steps.push_back(index);
    const std::size_t cells = g.ranks.size() * g.steps.size();
    for (auto& v : g.values)
        v.assign(cells, 0);
    g.windowStart.assign(cells, 0);
    g.windowEnd.assign(cells, 0);
    for (std::size_t si = 0; si < g.steps.size(); ++si) {
        const auto& ranks = byStep[g.steps[si]];
        std::int32_t straggler = g.ranks.front();
        Ns mostCompute = -1;
        for (std::size_t ri = 0; ri < g.ranks.size(); ++ri) {
            const StepSummary& s = *ranks.at(g.ranks[ri]);
            const std::size_t cell = ri * g.steps.size() + si;
            g.values[static_cast<std::size_t>(RankStepFigure::StepTime)][cell] = s.length();
            g.values[static_cast<std::size_t>(RankStepFigure::Compute)][cell] = s.breakdown.compute;
            g.values[static_cast<std::size_t>(RankStepFigure::ExposedCommunication)][cell] =
                s.breakdown.communication;
            g.values[static_cast<std::size_t>(RankStepFigure::Idle)][cell] = s.breakdown.idle;
            g.windowStart[cell] = s.gpuStart;
            g.windowEnd[cell] = s.gpuEnd;
            if (s.breakdown.compute > mostCompute) {
                mostCompute = s.breakdown.compute;
                straggler = s.rank;
            }
        }
        g.stragglerRank.push_back(straggler);
    }
    return g;
}

} // namespace cnp
