#include "metrics/EDivisive.h"

#include "metrics/SeededRandom.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cnp {
namespace {

double meanOf(const std::vector<double>& v, std::size_t begin, std::size_t end) {
    if (end <= begin)
        return 0;
    return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(begin),
                           v.begin() + static_cast<std::ptrdiff_t>(end), 0.0) /
           static_cast<double>(end - begin);
}

// The best split over all segments (bounded by `cuts`, sorted, 0 and n included): segment start and split.
struct BestOverall {
    std::size_t segment = 0; // index into cuts of the segment's start
    EDivisive::Split split;
};

BestOverall bestOverSegments(const std::vector<double>& s, const std::vector<std::size_t>& cuts,
                             std::size_t minSegment) {
    BestOverall best;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        const auto sp = EDivisive::bestSplit(s, cuts[k], cuts[k + 1], minSegment);
        if (sp.at != 0 && (best.split.at == 0 || sp.q > best.split.q))
            best = {k, sp};
    }
    return best;
}

} // namespace

EDivisive::EDivisive(EDivisiveOptions options) : options_(options) {
    options_.minSegment = std::max<std::size_t>(options_.minSegment, 2);
    options_.permutations = std::max(options_.permutations, 1);
}

EDivisive::Split EDivisive::bestSplit(const std::vector<double>& s, std::size_t begin, std::size_t end,
                                      std::size_t minSegment) {
    Split best;
    if (end < begin || end - begin < 2 * minSegment)
        return best;
    // X = s[begin, t), Y = s[t, end); within-sums wx, wy and between-sum b of |a - b|, updated as t moves.
    double wx = 0, wy = 0, b = 0;
    for (std::size_t i = begin; i < end; ++i)
        for (std::size_t j = i + 1; j < end; ++j)
            wy += std::abs(s[i] - s[j]);
    for (std::size_t t = begin; t + minSegment < end; ++t) {
        // Move s[t] from Y to X.
        double toX = 0, toY = 0;
        for (std::size_t i = begin; i < t; ++i)
            toX += std::abs(s[t] - s[i]);
        for (std::size_t j = t + 1; j < end; ++j)
            toY += std::abs(s[t] - s[j]);
        wx += toX;
        wy -= toY;
        b += toY - toX;
        const auto m = static_cast<double>(t + 1 - begin), n = static_cast<double>(end - t - 1);
        if (t + 1 - begin < minSegment)
            continue;
        const double q =
            m * n / (m + n) * (2 * b / (m * n) - wx / (m * (m - 1) / 2) - wy / (n * (n - 1) / 2));
        if (best.at == 0 || q > best.q)
            best = {t + 1, q};
    }
    return best;
}

std::vector<ChangePoint> EDivisive::detect(const std::vector<double>& series) const {
    std::vector<ChangePoint> found;
    const std::size_t n = series.size();
    if (n < 2 * options_.minSegment)
        return found;
    std::vector<std::size_t> cuts{0, n};
    SeededRandom rng(options_.seed);
    std::vector<double> shuffled(n);
    while (found.size() < options_.maxChangePoints) {
        const BestOverall best = bestOverSegments(series, cuts, options_.minSegment);
        if (best.split.at == 0)
            break;
        // Permutation test: shuffle within each current segment, take the best Q over all segments.
        int asLarge = 0;
        for (int p = 0; p < options_.permutations; ++p) {
            shuffled = series;
            for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
                for (std::size_t i = cuts[k + 1] - 1; i > cuts[k]; --i) // Fisher-Yates within the segment
                    std::swap(shuffled[i], shuffled[cuts[k] + rng.below(i - cuts[k] + 1)]);
            if (bestOverSegments(shuffled, cuts, options_.minSegment).split.q >= best.split.q)
                ++asLarge;
        }
        const double pValue = (1.0 + asLarge) / (1.0 + options_.permutations);
        if (pValue > options_.alpha)
            break;
        const std::size_t begin = cuts[best.segment], end = cuts[best.segment + 1];
        found.push_back({best.split.at, best.split.q, pValue, meanOf(series, begin, best.split.at),
                         meanOf(series, best.split.at, end)});
        cuts.insert(cuts.begin() + static_cast<std::ptrdiff_t>(best.segment + 1), best.split.at);
    }
    std::sort(found.begin(), found.end(),
              [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
    return found;
}

} // namespace cnp
