#pragma once
// Per-rank, per-step figures of a multi-rank run for the Ranks page (docs/metrics.md, "Ranks"):
// a rank x step matrix of step time, compute, exposed communication and idle (from the step summaries:
// no event is rescanned), the straggler of every step and per-rank means.
// Straggler of a step: the rank with the most compute time in its window. Collectives end when the last
// rank arrives, so the other ranks wait (exposed communication or idle) for the one with the most work.
// O(ranks x steps).
#include "core/RunSummaryTypes.h"

#include <array>
#include <cstdint>
#include <vector>

namespace cnp {

enum class RankStepFigure : std::uint8_t { StepTime = 0, Compute, ExposedCommunication, Idle };
inline constexpr std::size_t kRankStepFigureCount = 4;
const char* toString(RankStepFigure f);

struct RankStepGrid {
    std::vector<std::int32_t> ranks;         // rank ids, ascending
    std::vector<std::int32_t> steps;         // step indexes with GPU work on every rank, ascending
    std::vector<std::int32_t> stragglerRank; // per step (index into `steps`): the rank id
    // values[f][r * steps.size() + s], ns
    std::array<std::vector<Ns>, kRankStepFigureCount> values;
    // Window start and end (absolute ns) of rank r's step s, for jumping to the timeline.
    std::vector<Ns> windowStart, windowEnd;

    Ns value(RankStepFigure f, std::size_t rank, std::size_t step) const {
        return values[static_cast<std::size_t>(f)][rank * steps.size() + step];
    }
    // Mean of figure f over the steps of rank index r (0 when there are no steps).
    double rankMean(RankStepFigure f, std::size_t rank) const;
    // How many steps rank index r was the straggler of.
    int stragglerCount(std::size_t rank) const;
};

// From RunSummaryReader::steps() of one run. Steps missing on some rank are left out (as aggregateSteps).
RankStepGrid computeRankStepGrid(const std::vector<StepSummary>& steps);

} // namespace cnp
