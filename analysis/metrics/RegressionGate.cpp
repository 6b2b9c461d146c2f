#include "metrics/RegressionGate.h"

#include "metrics/SeededRandom.h"

#include <algorithm>
#include <cmath>

namespace cnp {
namespace {

std::size_t totalSize(const std::vector<std::vector<double>>& groups) {
    std::size_t n = 0;
    for (const auto& g : groups)
        n += g.size();
    return n;
}

std::vector<double> pooled(const std::vector<std::vector<double>>& groups) {
    std::vector<double> all;
    all.reserve(totalSize(groups));
    for (const auto& g : groups)
        all.insert(all.end(), g.begin(), g.end());
    return all;
}

// One circular moving-block resample of every run (each keeps its length), pooled into `out`.
void blockResample(const std::vector<std::vector<double>>& groups, SeededRandom& rng,
                   std::vector<double>& out) {
    out.clear();
    for (const auto& run : groups) {
        const std::size_t n = run.size();
        if (n == 0)
            continue;
        const std::size_t block = RegressionGate::blockLength(n);
        for (std::size_t filled = 0; filled < n;) {
            const std::size_t start = rng.below(n);
            for (std::size_t k = 0; k < block && filled < n; ++k, ++filled)
                out.push_back(run[(start + k) % n]);
        }
    }
}

// The value at quantile q of sorted `v` (linear interpolation between order statistics).
double quantileOfSorted(const std::vector<double>& v, double q) {
    if (v.empty())
        return 0;
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

} // namespace

const char* toString(GateVerdict v) {
    switch (v) {
    case GateVerdict::NoChange:
        return "no-change";
    case GateVerdict::Regression:
        return "regression";
    case GateVerdict::Improvement:
        return "improvement";
    case GateVerdict::CannotJudge:
        return "cannot-judge";
    }
    return "cannot-judge";
}

RegressionGate::RegressionGate(GateOptions options) : options_(options) {
    options_.resamples = std::max(options_.resamples, 100);
    options_.tolerance = std::max(options_.tolerance, 0.0);
}

double RegressionGate::twoSidedZ(double confidence) {
    // Bisection on erfc(z / sqrt 2) = 1 - confidence: monotone, 80 halvings of [0, 40] reach double
    // precision.
    const double alpha = 1 - std::clamp(confidence, 1e-12, 1 - 1e-12);
    double lo = 0, hi = 40;
    for (int i = 0; i < 80; ++i) {
        const double mid = (lo + hi) / 2;
        (std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

double RegressionGate::twoSidedT(double confidence, int dof) {
    const double z = twoSidedZ(confidence);
    if (dof <= 0)
        return z;
    const double c = std::clamp(confidence, 1e-12, 1 - 1e-12);
    if (dof == 1) // Cauchy: P(|T| <= t) = 2/pi atan t
        return std::tan(c * std::acos(-1.0) / 2);
    if (dof == 2) // P(|T| <= t) = t / sqrt(2 + t^2)
        return c * std::sqrt(2 / (1 - c * c));
    const double n = dof, z2 = z * z;
    const double z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n) +
           (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * n * n * n * n);
}

std::size_t RegressionGate::blockLength(std::size_t n) {
    const auto len = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n)) - 1e-9));
    return std::max<std::size_t>(1, len);
}

GateOutcome RegressionGate::compare(const std::vector<std::vector<double>>& baseline,
                                    const std::vector<std::vector<double>>& candidate, bool higherIsWorse,
                                    double releaseSd, int releaseDof) const {
    GateOutcome out;
    out.baselineSteps = totalSize(baseline);
    out.candidateSteps = totalSize(candidate);
    if (out.baselineSteps < kMinGateSamples || out.candidateSteps < kMinGateSamples) {
        out.reason = "too few steps (baseline " + std::to_string(out.baselineSteps) + ", candidate " +
                     std::to_string(out.candidateSteps) + "; at least " + std::to_string(kMinGateSamples) +
                     " each)";
        return out;
    }
    out.baselineMedian = Bootstrap::median(pooled(baseline));
    out.candidateMedian = Bootstrap::median(pooled(candidate));
    if (!(out.baselineMedian > 0) || !std::isfinite(out.candidateMedian) || out.candidateMedian < 0) {
        out.reason = "the baseline's median is not positive";
        return out;
    }
    out.ratio = out.candidateMedian / out.baselineMedian;

    SeededRandom rng(options_.seed);
    std::vector<double> ratios, scratchB, scratchC;
    ratios.reserve(static_cast<std::size_t>(options_.resamples));
    for (int i = 0; i < options_.resamples; ++i) {
        blockResample(baseline, rng, scratchB);
        blockResample(candidate, rng, scratchC);
        const double b = Bootstrap::median(scratchB);
        if (b > 0)
            ratios.push_back(Bootstrap::median(scratchC) / b);
    }
    std::sort(ratios.begin(), ratios.end());
    const double alpha = 1 - options_.confidence;
    out.ci = {quantileOfSorted(ratios, alpha / 2), quantileOfSorted(ratios, 1 - alpha / 2)};
    if (releaseSd > 0 && std::isfinite(releaseSd) && out.ci.lo > 0 && out.ratio > 0) {
        // Widen on the log scale: each half-width combined in quadrature with z x releaseSd.
        const double logR = std::log(out.ratio),
                     extra = twoSidedT(options_.confidence, releaseDof) * releaseSd;
        const double lo = logR - std::log(out.ci.lo), hi = std::log(out.ci.hi) - logR;
        out.ci = {std::exp(logR - std::hypot(std::max(lo, 0.0), extra)),
                  std::exp(logR + std::hypot(std::max(hi, 0.0), extra))};
        out.releaseSd = releaseSd;
    }

    const double tol = options_.tolerance;
    const bool worseSignificant = higherIsWorse ? out.ci.lo > 1 : out.ci.hi < 1;
    const bool betterSignificant = higherIsWorse ? out.ci.hi < 1 : out.ci.lo > 1;
    const bool worseBeyond = higherIsWorse ? out.ratio > 1 + tol : out.ratio < 1 - tol;
    const bool betterBeyond = higherIsWorse ? out.ratio < 1 - tol : out.ratio > 1 + tol;
    if (worseSignificant && worseBeyond)
        out.verdict = GateVerdict::Regression;
    else if (betterSignificant && betterBeyond)
        out.verdict = GateVerdict::Improvement;
    else
        out.verdict = GateVerdict::NoChange;
    return out;
}

} // namespace cnp
