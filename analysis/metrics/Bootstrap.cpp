#include "metrics/Bootstrap.h"

#include "metrics/SeededRandom.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cnp {

namespace {

double resampledMedian(const std::vector<double>& v, SeededRandom& rng, std::vector<double>& scratch) {
    scratch.resize(v.size());
    for (auto& x : scratch)
        x = v[rng.below(v.size())];
    return Bootstrap::median(std::move(scratch));
}

// One hierarchical draw: runs with replacement, then steps of each drawn run with replacement.
double resampledMedian(const std::vector<std::vector<double>>& groups, SeededRandom& rng,
                       std::vector<double>& scratch) {
    if (groups.size() == 1)
        return resampledMedian(groups.front(), rng, scratch);
    scratch.clear();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto& run = groups[rng.below(groups.size())];
        for (std::size_t i = 0; i < run.size(); ++i)
            scratch.push_back(run[rng.below(run.size())]);
    }
    return Bootstrap::median(std::move(scratch));
}

bool anyEmpty(const std::vector<std::vector<double>>& groups) {
    return groups.empty() ||
           std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.empty(); });
}

} // namespace

Bootstrap::Bootstrap(std::uint64_t seed, int resamples, double confidence)
    : seed_(seed), resamples_(resamples), confidence_(confidence) {
    if (resamples < 1 || !(confidence > 0 && confidence < 1))
        throw std::invalid_argument("bootstrap needs resamples >= 1 and 0 < confidence < 1");
}

double Bootstrap::median(std::vector<double> v) {
    if (v.empty())
        return 0;
    const std::size_t n = v.size();
    std::nth_element(v.begin(), v.begin() + static_cast<long>(n / 2), v.end());
    const double upper = v[n / 2];
    if (n % 2)
        return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + static_cast<long>(n / 2));
    return (lower + upper) / 2;
}

ConfidenceInterval Bootstrap::percentiles(std::vector<double>& stats) const {
    std::sort(stats.begin(), stats.end());
    const double alpha = (1 - confidence_) / 2;
    const auto b = static_cast<double>(stats.size());
    auto lo = static_cast<std::size_t>(std::floor(alpha * b));
    auto hi = static_cast<std::size_t>(std::ceil((1 - alpha) * b));
    lo = std::min(lo, stats.size() - 1);
    hi = std::clamp<std::size_t>(hi, 1, stats.size()) - 1;
    return {stats[lo], stats[hi]};
}

ConfidenceInterval Bootstrap::medianCi(const std::vector<double>& values) const {
    if (values.empty())
        return {0, 0};
    SeededRandom rng(seed_);
    std::vector<double> stats(static_cast<std::size_t>(resamples_)), scratch;
    for (auto& s : stats) {
        s = resampledMedian(values, rng, scratch);
    }
    return percentiles(stats);
}

ConfidenceInterval Bootstrap::ratioOfMediansCi(const std::vector<double>& num,
                                               const std::vector<double>& den) const {
    if (num.empty() || den.empty())
        return {0, 0};
    SeededRandom rng(seed_);
    std::vector<double> stats(static_cast<std::size_t>(resamples_)), scratch;
    for (auto& s : stats) {
        const double a = resampledMedian(num, rng, scratch);
        const double b = resampledMedian(den, rng, scratch);
        s = b != 0 ? a / b : 0;
    }
    return percentiles(stats);
}

ConfidenceInterval Bootstrap::medianCi(const std::vector<std::vector<double>>& groups) const {
    if (anyEmpty(groups))
        return {0, 0};
    SeededRandom rng(seed_);
    std::vector<double> stats(static_cast<std::size_t>(resamples_)), scratch;
    for (auto& s : stats)
        s = resampledMedian(groups, rng, scratch);
    return percentiles(stats);
}

ConfidenceInterval Bootstrap::ratioOfMediansCi(const std::vector<std::vector<double>>& num,
                                               const std::vector<std::vector<double>>& den) const {
    if (anyEmpty(num) || anyEmpty(den))
        return {0, 0};
    SeededRandom rng(seed_);
    std::vector<double> stats(static_cast<std::size_t>(resamples_)), scratch;
    for (auto& s : stats) {
        const double a = resampledMedian(num, rng, scratch);
        const double b = resampledMedian(den, rng, scratch);
        s = b != 0 ? a / b : 0;
    }
    return percentiles(stats);
}

} // namespace cnp
