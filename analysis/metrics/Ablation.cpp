#include "metrics/Ablation.h"

#include "core/InputError.h"
#include "metrics/Breakdown.h"
#include "metrics/CategoryRules.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cnp {

namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

// One step's contribution: its time and the breakdown/exclusive of the rank that defines it.
struct StepSample {
    Ns time = 0;
    BreakdownNs breakdown;
    ExclusiveNs exclusive;
};

std::vector<StepSample> samplesOfRun(const Workspace& ws, const RunRecord& run, int skipFirst) {
    const RunSummaryReader reader(ws, run.id);
    const auto steps = reader.steps();
    const auto multi = aggregateSteps(steps);
    std::vector<StepSample> out;
    if (!multi.empty()) {
        for (std::size_t i = static_cast<std::size_t>(std::max(0, skipFirst)); i < multi.size(); ++i)
            out.push_back({multi[i].stepTimeNs, multi[i].slowest->breakdown, multi[i].slowest->exclusive});
        return out;
    }
    // No step markers: the whole trace is one window (the longest over ranks).
    const auto ranks = reader.ranks();
    const RankSummary* best = nullptr;
    for (const auto& r : ranks)
        if (r.window && (!best || r.window->length() > best->window->length()))
            best = &r;
    if (best)
        out.push_back({best->window->length(), best->breakdown, best->exclusive});
    return out;
}

std::vector<double> asDoubles(const std::vector<Ns>& v) {
    return {v.begin(), v.end()};
}

RatioWithCi ratio(const Bootstrap& bs, const std::vector<Ns>& num, const std::vector<Ns>& den) {
    RatioWithCi r;
    const auto a = asDoubles(num), b = asDoubles(den);
    const double mb = Bootstrap::median(b);
    r.value = mb > 0 ? Bootstrap::median(a) / mb : 0;
    r.ci95 = bs.ratioOfMediansCi(a, b);
    r.significant = r.ci95.excludes(1.0);
    return r;
}

} // namespace

std::vector<Ns> apportionMeans(const std::vector<Ns>& sums, std::int64_t n) {
    std::vector<Ns> q(sums.size(), 0);
    if (n <= 0 || sums.empty())
        return q;
    Ns total = 0, floors = 0;
    std::vector<std::pair<Ns, std::size_t>> rem; // remainder in [0, n), index
    for (std::size_t i = 0; i < sums.size(); ++i) {
        total += sums[i];
        q[i] = floorDiv(sums[i], n);
        floors += q[i];
        rem.emplace_back(sums[i] - q[i] * n, i);
    }
    const Ns target = floorDiv(2 * total + n, 2 * n); // round half up
    Ns deficit = target - floors;                     // in [0, sums.size()]
    std::stable_sort(rem.begin(), rem.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; k < rem.size() && deficit > 0; ++k, --deficit)
        ++q[rem[k].second];
    return q;
}

AblationResult computeAblation(const Workspace& ws, const AblationOptions& opt) {
    const auto runs = ws.runs();
    if (runs.empty())
        throw InputError(ws.path(), "the workspace has no runs");
    std::vector<std::string> order = opt.order.empty() ? ws.planOrder() : opt.order;
    std::map<std::string, std::vector<const RunRecord*>> byConfig;
    for (const auto& r : runs)
        byConfig[r.info.config].push_back(&r);
    if (opt.order.empty())
        std::erase_if(order, [&](const std::string& c) { return !byConfig.count(c); });
    for (const auto& c : order)
        if (!byConfig.count(c))
            throw InputError(ws.path(), "no runs with configuration '" + c + "'");
    if (order.empty())
        throw InputError(ws.path(), "no configurations to compare");
    AblationResult res;
    res.baseline = opt.baseline.empty() ? order.front() : opt.baseline;
    if (std::find(order.begin(), order.end(), res.baseline) == order.end())
        throw InputError(ws.path(),
                         "baseline configuration '" + res.baseline + "' is not among the compared ones");

    auto catOrder = CategoryOrder::fromComputePriority(CategoryRules::forWorkspace(ws).computePriority());
    std::vector<std::vector<StepSample>> samples;
    for (const auto& c : order) {
        AblationConfig ac;
        ac.config = c;
        std::vector<StepSample> all;
        for (const auto* r : byConfig[c]) {
            ac.runs.push_back(r->info.name);
            ac.worldSize = std::max(ac.worldSize, r->info.worldSize);
            auto s = samplesOfRun(ws, *r, opt.skipFirstSteps);
            all.insert(all.end(), s.begin(), s.end());
            for (const auto& step : s)
                for (const auto& e : step.exclusive)
                    if (e.first != kIdleCategory)
                        catOrder.indexOf(e.first); // registers categories the rules do not know
        }
        if (all.empty())
            throw InputError(ws.path(), "configuration '" + c + "' has no GPU work to time");
        for (const auto& s : all)
            ac.stepTimesNs.push_back(s.time);
        samples.push_back(std::move(all));
        res.configs.push_back(std::move(ac));
    }
    res.categories = catOrder.names;
    res.categories.emplace_back(kIdleCategory);

    const Bootstrap bs(opt.seed, opt.resamples);
    const auto baseIt = std::find(order.begin(), order.end(), res.baseline);
    const auto& baseTimes = res.configs[static_cast<std::size_t>(baseIt - order.begin())].stepTimesNs;
    for (std::size_t k = 0; k < res.configs.size(); ++k) {
        auto& ac = res.configs[k];
        const auto& ss = samples[k];
        const auto times = asDoubles(ac.stepTimesNs);
        const double med = Bootstrap::median(times);
        ac.medianStepNs = std::llround(med);
        const auto ci = bs.medianCi(times);
        ac.ciLoNs = std::llround(ci.lo);
        ac.ciHiNs = std::llround(ci.hi);
        const auto n = static_cast<std::int64_t>(ss.size());

        // Exclusive per category + idle, and the breakdown parts, as exact integer means.
        std::vector<Ns> exSums(res.categories.size(), 0);
        std::vector<Ns> bdSums(4, 0);
        Ns overlapSum = 0, commTotalSum = 0;
        for (const auto& s : ss) {
            for (const auto& [cat, ns] : s.exclusive) {
                auto it = std::find(res.categories.begin(), res.categories.end(), cat);
                if (it != res.categories.end())
                    exSums[static_cast<std::size_t>(it - res.categories.begin())] += ns;
            }
            bdSums[0] += s.breakdown.compute;
            bdSums[1] += s.breakdown.communication;
            bdSums[2] += s.breakdown.memory;
            bdSums[3] += s.breakdown.idle;
            overlapSum += s.breakdown.overlap;
            commTotalSum += s.breakdown.communicationTotal;
        }
        const auto exMean = apportionMeans(exSums, n);
        const auto bdMean = apportionMeans(bdSums, n);
        ac.meanStepNs = 0;
        for (std::size_t i = 0; i < exMean.size(); ++i) {
            ac.exclusiveMeanNs.emplace_back(res.categories[i], exMean[i]);
            ac.meanStepNs += exMean[i];
        }
        ac.breakdownMeanNs = {bdMean[0], bdMean[1], apportionMeans({overlapSum}, n)[0],
                              bdMean[2], bdMean[3], apportionMeans({commTotalSum}, n)[0]};

        // Throughput and MFU from the median step time.
        const double sec = med / 1e9;
        double tokens = opt.tokensPerStep, flops = opt.flopsPerStep, peak = opt.peakFlops;
        for (const auto& r : runs)
            if (r.info.config == ac.config) {
                if (tokens <= 0)
                    tokens = r.info.tokensPerStep;
                if (flops <= 0)
                    flops = r.info.flopsPerStep;
                if (peak <= 0)
                    peak = r.info.peakFlops;
            }
        const double perStep = tokens > 0 ? tokens : 1.0;
        ac.throughputUnit = tokens > 0 ? "tokens/s" : "steps/s";
        ac.throughput = sec > 0 ? perStep / sec : 0;
        // Throughput is monotone decreasing in step time, so the step-time CI maps to its CI exactly.
        ac.throughputCiLo = ac.ciHiNs > 0 ? perStep / (static_cast<double>(ac.ciHiNs) / 1e9) : ac.throughput;
        ac.throughputCiHi = ac.ciLoNs > 0 ? perStep / (static_cast<double>(ac.ciLoNs) / 1e9) : ac.throughput;
        if (flops > 0 && peak > 0 && sec > 0)
            ac.mfu = flops / sec / (peak * std::max(1, ac.worldSize));

        ac.speedupVsBaseline = ratio(bs, baseTimes, ac.stepTimesNs);
        if (k > 0) {
            const auto& prev = res.configs[k - 1];
            ac.gainVsPrevious = ratio(bs, prev.stepTimesNs, ac.stepTimesNs);
            ExclusiveNs attr;
            for (std::size_t i = 0; i < ac.exclusiveMeanNs.size(); ++i)
                attr.emplace_back(res.categories[i],
                                  ac.exclusiveMeanNs[i].second - prev.exclusiveMeanNs[i].second);
            ac.attributionVsPreviousNs = std::move(attr);
            ac.attributionTotalNs = ac.meanStepNs - prev.meanStepNs;
        }
    }
    return res;
}

} // namespace cnp
