#include "metrics/ReleaseComparison.h"

#include <algorithm>
#include <cmath>

namespace cnp {

std::string GateMetric::name() const {
    switch (kind) {
    case GateMetricKind::StepTime:
        return "step_time";
    case GateMetricKind::Throughput:
        return "throughput";
    case GateMetricKind::Mfu:
        return "mfu";
    case GateMetricKind::Category:
        return category;
    }
    return category;
}

std::optional<GateMetric> gateMetricFrom(const std::string& name) {
    if (name.empty() || name.size() > 256)
        return std::nullopt;
    if (name == "step_time")
        return GateMetric{GateMetricKind::StepTime, {}};
    if (name == "throughput")
        return GateMetric{GateMetricKind::Throughput, {}};
    if (name == "mfu")
        return GateMetric{GateMetricKind::Mfu, {}};
    return GateMetric{GateMetricKind::Category, name};
}

bool ReleaseCheck::anyRegression() const {
    return std::any_of(checks.begin(), checks.end(),
                       [](const ConfigCheck& c) { return c.outcome.verdict == GateVerdict::Regression; });
}

bool ReleaseCheck::anyUnjudged() const {
    return !problems.empty() || std::any_of(checks.begin(), checks.end(), [](const ConfigCheck& c) {
        return c.outcome.verdict == GateVerdict::CannotJudge;
    });
}

int ReleaseCheck::exitCode() const {
    if (anyRegression())
        return 1;
    return anyUnjudged() ? 2 : 0;
}

namespace {

// Per step: `scale` / step time (throughput and MFU at a step's own time), one vector per run.
std::vector<std::vector<double>> inverseSteps(const ConfigReleaseSummary& c, double scale) {
    std::vector<std::vector<double>> out;
    for (const auto& run : c.stepTimesByRun) {
        auto& v = out.emplace_back();
        v.reserve(run.size());
        for (Ns t : run)
            if (t > 0)
                v.push_back(scale / static_cast<double>(t));
    }
    return out;
}

std::vector<CategoryMove> categoryMoves(const ConfigReleaseSummary& b, const ConfigReleaseSummary& c,
                                        std::size_t top) {
    std::vector<CategoryMove> moves;
    for (std::size_t i = 0; i < b.categories.size(); ++i) {
        const std::size_t j = c.categoryIndex(b.categories[i]);
        moves.push_back(
            {b.categories[i], b.categoryMeanNs(i), j < c.categories.size() ? c.categoryMeanNs(j) : 0});
    }
    for (std::size_t j = 0; j < c.categories.size(); ++j)
        if (b.categoryIndex(c.categories[j]) == b.categories.size())
            moves.push_back({c.categories[j], 0, c.categoryMeanNs(j)});
    std::stable_sort(moves.begin(), moves.end(), [](const CategoryMove& x, const CategoryMove& y) {
        return std::abs(x.deltaNs()) > std::abs(y.deltaNs());
    });
    std::erase_if(moves, [](const CategoryMove& m) { return m.deltaNs() == 0; });
    if (moves.size() > top)
        moves.resize(top);
    return moves;
}

void addPlanProblems(const ReleaseSummary& baseline, const ReleaseSummary& candidate,
                     std::vector<std::string>& problems) {
    std::vector<std::string> common;
    for (const auto& b : baseline.configs) {
        if (!candidate.config(b.config))
            problems.push_back("configuration " + b.config +
                               " of the baseline is missing from the candidate");
        else
            common.push_back(b.config);
    }
    for (const auto& c : candidate.configs)
        if (!baseline.config(c.config))
            problems.push_back("configuration " + c.config + " of the candidate is not in the baseline");
    std::vector<std::string> candidateOrder;
    for (const auto& c : candidate.configs)
        if (baseline.config(c.config))
            candidateOrder.push_back(c.config);
    if (candidateOrder != common)
        problems.push_back("the plans order the configurations differently");
}

} // namespace

std::vector<std::vector<double>> gateSamples(const ConfigReleaseSummary& c, const GateMetric& metric,
                                             std::string& why) {
    const double median = static_cast<double>(c.medianStepNs);
    switch (metric.kind) {
    case GateMetricKind::StepTime: {
        std::vector<std::vector<double>> out;
        for (const auto& run : c.stepTimesByRun)
            out.emplace_back(run.begin(), run.end());
        return out;
    }
    case GateMetricKind::Throughput:
        if (!(c.throughput > 0) || median <= 0) {
            why = "no throughput";
            return {};
        }
        return inverseSteps(c, c.throughput * median);
    case GateMetricKind::Mfu:
        if (!c.mfu || !(*c.mfu > 0) || median <= 0) {
            why = "no MFU (FLOPs per step or peak unknown)";
            return {};
        }
        return inverseSteps(c, *c.mfu * median);
    case GateMetricKind::Category: {
        const std::size_t i = c.categoryIndex(metric.category);
        if (i >= c.categorySteps.size()) {
            why = "no category " + metric.category;
            return {};
        }
        std::vector<std::vector<double>> out;
        for (const auto& run : c.categorySteps[i])
            out.emplace_back(run.begin(), run.end());
        return out;
    }
    }
    return {};
}

double releaseSpread(const std::vector<double>& medians) {
    std::vector<double> logs;
    for (double m : medians)
        if (m > 0 && std::isfinite(m))
            logs.push_back(std::log(m));
    if (logs.size() < 2)
        return 0;
    const auto k = static_cast<double>(logs.size());
    double mean = 0;
    for (double l : logs)
        mean += l / k;
    double ss = 0;
    for (double l : logs)
        ss += (l - mean) * (l - mean);
    return std::sqrt(ss / (k - 1)) * std::sqrt(1 + 1 / k);
}

namespace {

// The window releases (oldest first) that have `config` at `worldSize`, limited to the last `limit`.
std::vector<std::size_t> windowFor(const BaselineWindow& w, const std::string& config,
                                   std::int32_t worldSize) {
    std::size_t limit = w.releases.size();
    if (auto it = w.lastReleasesOf.find(config); it != w.lastReleasesOf.end())
        limit = std::max<std::size_t>(1, it->second);
    std::vector<std::size_t> out;
    for (std::size_t i = w.releases.size(); i-- > 0 && out.size() < limit;) {
        const ConfigReleaseSummary* c = w.releases[i]->config(config);
        if (c && c->worldSize == worldSize)
            out.insert(out.begin(), i);
    }
    return out;
}

ConfigCheck checkOne(const BaselineWindow& w, const std::vector<std::size_t>& used,
                     const ConfigReleaseSummary& ref, const ConfigReleaseSummary& cand,
                     const GateMetric& metric, const RegressionGate& gate, std::size_t topMoves) {
    ConfigCheck check{ref.config, metric, {}, {}, categoryMoves(ref, cand, topMoves), {}};
    check.kernelsMoved =
        kernelMoves(ref.kernels, cand.kernels, static_cast<double>(ref.medianStepNs),
                    static_cast<double>(cand.medianStepNs) - static_cast<double>(ref.medianStepNs), topMoves);
    std::string why;
    if (ref.worldSize != cand.worldSize)
        why = "world sizes differ (" + std::to_string(ref.worldSize) + " vs " +
              std::to_string(cand.worldSize) + ")";
    else if (metric.kind == GateMetricKind::Throughput && ref.throughputUnit != cand.throughputUnit)
        why = "throughput units differ (" + ref.throughputUnit + " vs " + cand.throughputUnit + ")";
    std::vector<std::vector<double>> base;
    std::vector<double> medians;
    for (std::size_t i : used) {
        if (!why.empty())
            break;
        auto groups = gateSamples(*w.releases[i]->config(ref.config), metric, why);
        std::vector<double> all;
        for (auto& g : groups) {
            all.insert(all.end(), g.begin(), g.end());
            base.push_back(std::move(g));
        }
        medians.push_back(Bootstrap::median(std::move(all)));
        check.baselineReleases.push_back(w.names[i]);
    }
    const auto cs = why.empty() ? gateSamples(cand, metric, why) : std::vector<std::vector<double>>{};
    if (why.empty())
        check.outcome = gate.compare(base, cs, metric.higherIsWorse(), releaseSpread(medians),
                                     static_cast<int>(medians.size()) - 1);
    else
        check.outcome.reason = why;
    return check;
}

} // namespace

ReleaseCheck checkRelease(const BaselineWindow& window, const ReleaseSummary& candidate,
                          const std::vector<GateMetric>& metrics, const GateOptions& options,
                          std::size_t topMoves) {
    ReleaseCheck out;
    if (window.releases.empty()) {
        out.problems.push_back("no baseline release");
        return out;
    }
    const ReleaseSummary& latest = *window.releases.back();
    addPlanProblems(latest, candidate, out.problems);
    const RegressionGate gate(options);
    for (const auto& ref : latest.configs) {
        const ConfigReleaseSummary* c = candidate.config(ref.config);
        if (!c)
            continue;
        const auto used = windowFor(window, ref.config, ref.worldSize);
        for (const auto& metric : metrics)
            out.checks.push_back(checkOne(window, used, ref, *c, metric, gate, topMoves));
    }
    return out;
}

ReleaseCheck checkRelease(const ReleaseSummary& baseline, const ReleaseSummary& candidate,
                          const std::vector<GateMetric>& metrics, const GateOptions& options,
                          std::size_t topMoves) {
    BaselineWindow w;
    w.releases = {&baseline};
    w.names = {"baseline"};
    return checkRelease(w, candidate, metrics, options, topMoves);
}

} // namespace cnp
