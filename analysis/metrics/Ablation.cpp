#include "metrics/Ablation.h"

#include "core/CommaList.h"
#include "core/InputError.h"
#include "core/PhysicalBounds.h"
#include "core/TimeBounds.h"
#include "core/Units.h"
#include "metrics/Breakdown.h"
#include "metrics/MultiRankSteps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <span>

namespace cnp {

AblationRunSamples ablationSamplesOf(const RunSnapshot& run) {
    AblationRunSamples out;
    for (const auto& r : run.ranks) {
        out.cpuRanges = saturatingAdd(out.cpuRanges, r.counts.cpuRange);
        out.windowNs = saturatingAdd(out.windowNs, r.window ? r.window->length() : 0);
    }
    const auto multi = aggregateSteps(run.steps);
    if (!multi.empty()) {
        for (const auto& m : multi)
            out.steps.push_back(
                {m.stepTimeNs, m.slowest->launchBoundIdleNs, m.slowest->breakdown, m.slowest->exclusive});
        return out;
    }
    // No step markers: the whole trace is one window (the longest over ranks).
    out.wholeTrace = true;
    const RankSummary* best = nullptr;
    for (const auto& r : run.ranks)
        if (r.window && (!best || r.window->length() > best->window->length()))
            best = &r;
    if (best)
        out.steps.push_back(
            {best->window->length(), best->launchBoundIdleNs, best->breakdown, best->exclusive});
    return out;
}

namespace {

std::optional<std::string> attributeOf(const AblationRun& run, const std::string& key) {
    const auto it = run.attributes.find(key);
    return it == run.attributes.end() ? std::nullopt : std::optional<std::string>(it->second);
}

// A positive figure within `bound`; anything else (text, 0, inf, 1e308 from a shared workspace) is
// taken as not known, so no arithmetic on it overflows.
std::optional<double> numberAttribute(const AblationRun& run, const std::string& key,
                                      const PhysicalBound& bound) {
    const auto v = attributeOf(run, key);
    if (!v)
        return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    if (end == v->c_str() || *end != '\0' || !std::isfinite(d) || d <= 0 || !bound.holds(d))
        return std::nullopt;
    return d;
}

// A run's log figures: throughput (with its unit) and the step time, reported or derived from a
// throughput in steps/s or in tokens/s with tokens per step known. 0 = not known.
struct RunLog {
    double throughput = 0;
    std::string unit, source;
    Ns stepNs = 0;
};

RunLog logOfRun(const AblationRun& run, double tokensPerStep) {
    RunLog l;
    if (auto t = numberAttribute(run, "log.throughput", bounds::kLogThroughput)) {
        l.throughput = *t;
        l.unit = attributeOf(run, "log.throughput_unit").value_or("");
    }
    l.source = attributeOf(run, "log.source").value_or("log");
    if (auto st = numberAttribute(run, "log.step_time_s", bounds::kLogStepTime))
        l.stepNs = std::llround(*st * 1e9);
    else if (l.throughput > 0 && l.unit == "steps/s")
        l.stepNs = std::llround(1e9 / l.throughput);
    else if (l.throughput > 0 && l.unit == "tokens/s" && tokensPerStep > 0)
        l.stepNs = std::llround(tokensPerStep / l.throughput * 1e9);
    return l;
}

std::vector<double> asDoubles(const std::vector<Ns>& v) {
    return {v.begin(), v.end()};
}

std::vector<std::vector<double>> asGroups(const std::vector<std::vector<Ns>>& runs) {
    std::vector<std::vector<double>> g;
    for (const auto& r : runs)
        if (!r.empty())
            g.push_back(asDoubles(r));
    return g;
}

std::size_t sampleCount(const std::vector<std::vector<Ns>>& runs) {
    std::size_t n = 0;
    for (const auto& r : runs)
        n += r.size();
    return n;
}

std::vector<Ns> pooled(const std::vector<std::vector<Ns>>& runs) {
    std::vector<Ns> all;
    for (const auto& r : runs)
        all.insert(all.end(), r.begin(), r.end());
    return all;
}

// Ratio of medians num / den with its hierarchical bootstrap CI, when both sides have enough samples.
RatioWithCi ratio(const Bootstrap& bs, const std::vector<std::vector<Ns>>& num,
                  const std::vector<std::vector<Ns>>& den) {
    RatioWithCi r;
    const double mb = Bootstrap::median(asDoubles(pooled(den)));
    r.value = mb > 0 ? Bootstrap::median(asDoubles(pooled(num))) / mb : 0;
    r.hasCi = sampleCount(num) >= kMinSamplesForCi && sampleCount(den) >= kMinSamplesForCi;
    r.ci95 =
        r.hasCi ? bs.ratioOfMediansCi(asGroups(num), asGroups(den)) : ConfidenceInterval{r.value, r.value};
    r.significant = r.hasCi && r.ci95.excludes(1.0);
    return r;
}

} // namespace

SpeedupRange unprofiledSpeedupRange(double tracedSpeedup, double baselineShare, double configShare) {
    const double b = std::clamp(baselineShare, 0.0, 1.0), c = std::clamp(configShare, 0.0, 0.99);
    return {tracedSpeedup * (1 - b), tracedSpeedup / (1 - c)};
}

const char* toString(AblationSource s) {
    return s == AblationSource::Log ? "log" : "trace";
}

std::optional<AblationSource> ablationSourceFrom(const std::string& s) {
    if (s == "trace")
        return AblationSource::Trace;
    if (s == "log")
        return AblationSource::Log;
    return std::nullopt;
}

AblationSource ablationSourceOf(const WorkspaceSettings& settings) {
    const auto& m = settings.ablationSource;
    return m ? ablationSourceFrom(*m).value_or(AblationSource::Trace) : AblationSource::Trace;
}

namespace {

__extension__ typedef __int128 i128; // sums of many stored durations exceed int64 (issue 33.4)

i128 floorDiv128(i128 a, i128 b) {
    i128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

// apportionMeans over 128-bit sums: each mean fits int64 when the summed values do.
std::vector<Ns> apportion(const std::vector<i128>& sums, std::int64_t n) {
    std::vector<Ns> q(sums.size(), 0);
    if (n <= 0 || sums.empty())
        return q;
    i128 total = 0, floors = 0;
    std::vector<std::pair<i128, std::size_t>> rem; // remainder in [0, n), index
    for (std::size_t i = 0; i < sums.size(); ++i) {
        total += sums[i];
        const i128 fi = floorDiv128(sums[i], n);
        q[i] = static_cast<Ns>(fi);
        floors += fi;
        rem.emplace_back(sums[i] - fi * n, i);
    }
    const i128 target = floorDiv128(2 * total + n, 2 * static_cast<i128>(n)); // round half up
    i128 deficit = target - floors;                                           // in [0, sums.size()]
    std::stable_sort(rem.begin(), rem.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; k < rem.size() && deficit > 0; ++k, --deficit)
        ++q[rem[k].second];
    return q;
}

} // namespace

std::vector<Ns> apportionMeans(const std::vector<Ns>& sums, std::int64_t n) {
    return apportion(std::vector<i128>(sums.begin(), sums.end()), n);
}

namespace {

// The configurations compared, in order, and those left out. With a plan order in the workspace (meta
// `plan_order`) only its configurations take part; without one, every configuration in ingest order.
// `byConfig` holds the compared study's runs; `elsewhere` the configurations with runs in other studies
// only: a plan order naming none of this study's configurations but some of those is another study's
// plan, and this study then follows its runs' order (docs/metrics.md, "Studies").
template <typename Runs>
void chooseConfigurations(const WorkspaceSettings& ws, const AblationOptions& opt,
                          const std::map<std::string, Runs>& byConfig, const std::set<std::string>& elsewhere,
                          AblationResult& res, std::vector<std::string>& order) {
    const auto& plan = ws.planOrderMeta;
    auto withoutRuns = [&](std::vector<std::string>& v) {
        std::erase_if(v, [&](const std::string& c) { return !byConfig.count(c); });
    };
    if (!opt.order.empty()) {
        order = opt.order;
    } else {
        const auto planned = plan ? splitCommaList(*plan) : ws.planOrder;
        order = planned;
        withoutRuns(order);
        const bool othersPlan = std::any_of(planned.begin(), planned.end(),
                                            [&](const std::string& c) { return elsewhere.count(c) > 0; });
        if (order.empty() && plan && othersPlan) {
            order = ws.planOrder;
            withoutRuns(order);
        }
    }
    for (const auto& c : order)
        if (!byConfig.count(c))
            throw InputError(ws.path, "no runs with configuration '" + c + "'" +
                                          (res.study.empty() || res.studies.size() < 2
                                               ? std::string()
                                               : " in study '" + res.study + "'" +
                                                     (elsewhere.count(c) ? " (another study has it: --study)"
                                                                         : std::string())));
    for (const auto& c : ws.planOrder)
        if (byConfig.count(c) && std::find(order.begin(), order.end(), c) == order.end())
            res.notInPlan.push_back(c);
    if (order.empty() && plan && !res.notInPlan.empty()) { // a stale or foreign plan order: say the way out
        std::string have;
        for (const auto& c : res.notInPlan)
            have += (have.empty() ? "" : ",") + c;
        throw InputError(ws.path, "no configuration of the plan order has runs (plan: " + *plan +
                                      "; configurations with runs: " + have + "; cnp edit --plan " + have +
                                      " sets the order)");
    }
    if (order.empty())
        throw InputError(ws.path, plan ? "no configuration of the plan order has runs (plan: " + *plan + ")"
                                       : "no configurations to compare");
    res.baseline = opt.baseline.empty() ? order.front() : opt.baseline;
    if (std::find(order.begin(), order.end(), res.baseline) == order.end())
        throw InputError(ws.path,
                         "baseline configuration '" + res.baseline + "' is not among the compared ones");
}

// The studies of `runs` and the one compared (every run with allStudies); fills `res.study`/`studies`.
// `inStudy[i]` tells whether runs[i] is compared.
std::vector<bool> chooseStudyRuns(const WorkspaceSettings& ws, const std::vector<AblationRun>& runs,
                                  const AblationOptions& opt, AblationResult& res) {
    if (runs.empty())
        throw InputError(ws.path, "the workspace has no runs");
    std::vector<StudyMember> members;
    members.reserve(runs.size());
    for (const auto& r : runs)
        members.push_back(studyMemberOf(r.run, r.attributes));
    res.studies = groupStudies(members);
    std::vector<bool> in(runs.size(), true);
    if (opt.allStudies) {
        if (!opt.study.empty())
            throw InputError(ws.path, "give a study or all studies, not both");
        return in;
    }
    std::vector<std::string> named = opt.order;
    if (!opt.baseline.empty())
        named.push_back(opt.baseline);
    const AblationStudy& chosen = chooseStudy(res.studies, opt.study, named, ws.path);
    res.study = chosen.name;
    for (std::size_t i = 0; i < runs.size(); ++i)
        in[i] = members[i].study.name == chosen.name;
    return in;
}

// Runs by configuration: those of the compared study, and the configurations only other studies have.
void splitByStudy(const std::vector<AblationRun>& runs, const std::vector<bool>& in,
                  std::map<std::string, std::vector<const AblationRun*>>& byConfig,
                  std::set<std::string>& elsewhere) {
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (in[i])
            byConfig[runs[i].run.info.config].push_back(&runs[i]);
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (!in[i] && !byConfig.count(runs[i].run.info.config))
            elsewhere.insert(runs[i].run.info.config);
}

// The loud caveat of an ablation across studies: which studies its configurations come from.
void addMixedStudiesWarning(AblationResult& res,
                            const std::map<std::string, std::vector<const AblationRun*>>& byConfig,
                            const std::vector<std::string>& order) {
    std::set<std::string> used;
    std::set<std::int32_t> sizes;
    for (const auto& c : order)
        for (const auto* r : byConfig.at(c)) {
            used.insert(studyOfRun(r->run, r->attributes).name);
            sizes.insert(std::max(r->run.info.worldSize, r->run.rankCount));
        }
    if (used.size() < 2 && sizes.size() < 2)
        return;
    std::string names;
    for (const auto& n : used)
        names += (names.empty() ? "'" : ", '") + n + "'";
    res.warnings.push_back(
        {"", "mixed-studies",
         "MIXED STUDIES: this ablation compares runs of " + std::to_string(used.size()) + " studies (" +
             names + ")" + (sizes.size() > 1 ? " with different GPU counts" : std::string()) +
             "; their speedups are not measurements of one change. Compare one study (--study NAME)",
         std::nullopt});
}

std::vector<const RunRecord*> recordsOf(const std::vector<const AblationRun*>& runs) {
    std::vector<const RunRecord*> out;
    out.reserve(runs.size());
    for (const auto* r : runs)
        out.push_back(&r->run);
    return out;
}

double tokensOf(const std::vector<const AblationRun*>& runs, double overrideValue) {
    if (overrideValue > 0)
        return overrideValue;
    for (const auto* r : runs)
        if (r->run.info.tokensPerStep > 0)
            return r->run.info.tokensPerStep;
    return 0;
}

// The samples of one run the ablation counts: all but the first `skipFirst` steps (a run without step
// markers is one window and skips nothing), and their profiler-overhead evidence.
struct CountedSamples {
    std::span<const AblationStepSample> steps;
    Ns launchBoundNs = 0, stepTotalNs = 0, windowNs = 0;
    std::int64_t cpuRanges = 0;
};

CountedSamples countedSamples(const AblationRunSamples& s, int skipFirst) {
    CountedSamples out;
    out.cpuRanges = s.cpuRanges;
    out.windowNs = s.windowNs;
    const std::size_t first =
        s.wholeTrace ? 0 : std::min(s.steps.size(), static_cast<std::size_t>(std::max(0, skipFirst)));
    out.steps = std::span<const AblationStepSample>(s.steps).subspan(first);
    for (const auto& st : out.steps) {
        out.launchBoundNs = saturatingAdd(out.launchBoundNs, st.launchBoundNs);
        out.stepTotalNs = saturatingAdd(out.stepTotalNs, st.time);
    }
    return out;
}

// The configuration's log figures over its runs; throws when its runs' logs use different units.
std::optional<LogFigures> logFiguresOf(const std::string& path, const std::string& config,
                                       const std::vector<const AblationRun*>& runs, double tokensPerStep,
                                       std::vector<Ns>& stepTimes) {
    LogFigures f;
    std::vector<double> throughputs;
    for (const auto* r : runs) {
        const RunLog l = logOfRun(*r, tokensPerStep);
        if (l.throughput <= 0 && l.stepNs <= 0)
            continue;
        ++f.runs;
        if (f.source.empty())
            f.source = l.source;
        else if (f.source.find(l.source) == std::string::npos)
            f.source += "+" + l.source;
        if (l.throughput > 0) {
            if (!f.throughputUnit.empty() && f.throughputUnit != l.unit)
                throw InputError(path, "configuration '" + config + "' has log throughputs in " +
                                           f.throughputUnit + " and in " + l.unit +
                                           "; one unit per ablation (cnp edit --throughput ... --unit)");
            f.throughputUnit = l.unit;
            throughputs.push_back(l.throughput);
        }
        if (l.stepNs > 0)
            stepTimes.push_back(l.stepNs);
    }
    if (f.runs == 0)
        return std::nullopt;
    f.throughput = Bootstrap::median(throughputs);
    f.medianStepNs = std::llround(Bootstrap::median(asDoubles(stepTimes)));
    return f;
}

// The traced steps of one configuration's runs (per run, in run order) and its profiler-overhead
// figures; `all` receives every step sample. Registers categories the rules do not know in `catOrder`.
AblationConfig tracedSamplesOf(const std::string& config, const std::vector<const AblationRun*>& runs,
                               int skipFirst, CategoryOrder& catOrder, std::vector<AblationStepSample>& all) {
    AblationConfig ac;
    ac.config = config;
    Ns launchBound = 0, stepTotal = 0, window = 0;
    std::int64_t cpuRanges = 0;
    std::set<std::string> profilers;
    for (const auto* r : runs) {
        ac.runs.push_back(r->run.info.name);
        ac.runIds.push_back(r->run.id);
        ac.worldSize = std::max(ac.worldSize, r->run.info.worldSize);
        const auto rs = countedSamples(r->samples, skipFirst);
        std::vector<Ns> times;
        for (const auto& step : rs.steps) {
            times.push_back(step.time);
            for (const auto& e : step.exclusive)
                if (e.first != kIdleCategory)
                    catOrder.indexOf(e.first);
        }
        if (!rs.steps.empty())
            profilers.insert(r->run.info.sourceFormat);
        launchBound = saturatingAdd(launchBound, rs.launchBoundNs);
        stepTotal = saturatingAdd(stepTotal, rs.stepTotalNs);
        window = saturatingAdd(window, rs.windowNs);
        cpuRanges = saturatingAdd(cpuRanges, rs.cpuRanges);
        all.insert(all.end(), rs.steps.begin(), rs.steps.end());
        ac.stepTimesNs.insert(ac.stepTimesNs.end(), times.begin(), times.end());
        ac.stepTimesByRun.push_back(std::move(times));
    }
    for (const auto& p : profilers)
        ac.overhead.profiler += (ac.overhead.profiler.empty() ? "" : "+") + p;
    ac.overhead.launchBoundShare =
        stepTotal > 0 ? static_cast<double>(launchBound) / static_cast<double>(stepTotal) : 0;
    ac.overhead.cpuRangesPerMs =
        window > 0 ? static_cast<double>(cpuRanges) / (static_cast<double>(window) / 1e6) : 0;
    return ac;
}

// Exclusive per category + idle, and the breakdown parts, as exact integer means over `ss`.
void setMeans(AblationConfig& ac, const std::vector<AblationStepSample>& ss,
              const std::vector<std::string>& categories) {
    const auto n = static_cast<std::int64_t>(ss.size());
    std::vector<i128> exSums(categories.size(), 0);
    std::vector<i128> bdSums(4, 0);
    i128 overlapSum = 0, commTotalSum = 0;
    for (const auto& s : ss) {
        for (const auto& [cat, ns] : s.exclusive) {
            auto it = std::find(categories.begin(), categories.end(), cat);
            if (it != categories.end())
                exSums[static_cast<std::size_t>(it - categories.begin())] += ns;
        }
        bdSums[0] += s.breakdown.compute;
        bdSums[1] += s.breakdown.communication;
        bdSums[2] += s.breakdown.memory;
        bdSums[3] += s.breakdown.idle;
        overlapSum += s.breakdown.overlap;
        commTotalSum += s.breakdown.communicationTotal;
    }
    const auto exMean = apportion(exSums, n);
    const auto bdMean = apportion(bdSums, n);
    ac.meanStepNs = 0;
    for (std::size_t i = 0; i < exMean.size(); ++i) {
        ac.exclusiveMeanNs.emplace_back(categories[i], exMean[i]);
        ac.meanStepNs = saturatingAdd(ac.meanStepNs, exMean[i]);
    }
    ac.breakdownMeanNs = {bdMean[0], bdMean[1], apportion({overlapSum}, n)[0],
                          bdMean[2], bdMean[3], apportion({commTotalSum}, n)[0]};
}

// Profiler-overhead caveats (docs/metrics.md, "Profiler overhead"): a traced step with launch-bound idle
// is one the CPU could not feed, and a profiler's per-op CPU cost makes exactly that time longer. Anything
// from none to all of it may be overhead, so a speedup vs the baseline is given as the range
// unprofiledSpeedupRange() spans, with the direction of the bias when only one side has such idle.
constexpr double kLaunchBoundWarnShare = 0.05;
constexpr double kSpeedupBiasWarn = 0.02;

// "the traced speedup can only understate ..." when only the configuration has launch-bound idle, and the
// converse; empty when both (or neither) have some.
std::string biasDirection(double baselineShare, double configShare) {
    if (baselineShare <= 0 && configShare > 0)
        return " (only this configuration has launch-bound idle: the traced speedup can only understate the "
               "unprofiled one)";
    if (configShare <= 0 && baselineShare > 0)
        return " (only the baseline has launch-bound idle: the traced speedup can only overstate the "
               "unprofiled one)";
    return "";
}

void addOverheadWarnings(AblationResult& res) {
    const auto& base = *std::find_if(res.configs.begin(), res.configs.end(),
                                     [&](const AblationConfig& c) { return c.config == res.baseline; });
    for (const auto& c : res.configs) {
        const auto& o = c.overhead;
        if (o.launchBoundShare >= kLaunchBoundWarnShare) {
            std::string m = c.config + ": " + units::percent(o.launchBoundShare) +
                            " of the traced step time is launch-bound GPU idle (profiler " + o.profiler +
                            ", " + units::fixed(o.cpuRangesPerMs, 1) +
                            " CPU ranges per ms): the CPU did not keep the GPU fed while traced";
            if (o.profiler.find("kineto") != std::string::npos)
                m += ", and torch.profiler adds CPU time to every op";
            m += "; the unprofiled step may be up to " + units::percent(o.launchBoundShare) + " shorter";
            res.warnings.push_back({c.config, "profiler-overhead", m, std::nullopt});
        }
        const double s = c.speedupVsBaseline.value;
        if (c.config == res.baseline || res.source != AblationSource::Trace || s <= 0)
            continue;
        const double b = base.overhead.launchBoundShare;
        const SpeedupRange range = unprofiledSpeedupRange(s, b, o.launchBoundShare);
        if (range.low / s > 1 - kSpeedupBiasWarn && range.high / s < 1 + kSpeedupBiasWarn)
            continue;
        res.warnings.push_back({c.config, "profiler-overhead",
                                c.config + ": the traced speedup " + units::ratio(s) + " vs " + res.baseline +
                                    " is biased by profiler overhead: unprofiled it lies between " +
                                    units::ratio(range.low) + " and " + units::ratio(range.high) +
                                    ", depending on how much of the launch-bound idle of " + res.baseline +
                                    " (" + units::percent(b) + ") and " + c.config + " (" +
                                    units::percent(o.launchBoundShare) + ") was profiler overhead" +
                                    biasDirection(b, o.launchBoundShare) +
                                    "; compare with unprofiled figures (log source) before quoting it",
                                range});
    }
}

void addFigureWarnings(AblationResult& res) {
    std::string noCi;
    for (const auto& c : res.configs)
        if (!c.hasCi)
            noCi += (noCi.empty() ? "" : ", ") + c.config + " " + c.ciMissingReason;
    if (!noCi.empty())
        res.warnings.push_back({"", "too-few-samples",
                                "no confidence interval (fewer than " + std::to_string(kMinSamplesForCi) +
                                    " samples per configuration): " + noCi +
                                    "; medians and ratios are shown without one and are never significant",
                                std::nullopt});
    for (const auto& c : res.configs) {
        if (!c.log || c.log->medianStepNs <= 0 || c.tracedMedianStepNs <= 0)
            continue;
        const double d =
            static_cast<double>(c.tracedMedianStepNs) / static_cast<double>(c.log->medianStepNs) - 1;
        if (std::abs(d) >= kLaunchBoundWarnShare)
            res.warnings.push_back({c.config, "log-vs-trace",
                                    c.config + ": the traced median step is " + units::percent(std::abs(d)) +
                                        (d > 0 ? " above" : " below") + " the step time its log reported",
                                    std::nullopt});
    }
}

// The median of the compared figure (returned unrounded) and its bootstrap CI, or why there is none.
double setMedianAndCi(AblationConfig& ac, const std::vector<std::vector<Ns>>& byRun, const Bootstrap& bs,
                      AblationSource source) {
    const auto figure = asDoubles(pooled(byRun));
    const double med = Bootstrap::median(figure);
    ac.medianStepNs = std::llround(med);
    ac.tracedMedianStepNs = std::llround(Bootstrap::median(asDoubles(ac.stepTimesNs)));
    const std::size_t n = figure.size();
    ac.hasCi = n >= kMinSamplesForCi;
    const char* what = source == AblationSource::Trace ? "steps" : "runs with a log figure";
    if (ac.hasCi) {
        const auto ci = bs.medianCi(asGroups(byRun));
        ac.ciLoNs = std::llround(ci.lo);
        ac.ciHiNs = std::llround(ci.hi);
    } else {
        ac.ciLoNs = ac.ciHiNs = ac.medianStepNs;
        ac.ciMissingReason = std::string("too few ") + what + " (" + std::to_string(n) + " < " +
                             std::to_string(kMinSamplesForCi) + ")";
    }
    return med;
}

// Throughput and MFU from the median of the compared figure (`medianNs`); a log's own throughput when
// the log source is compared and the log reported one.
void setThroughputAndMfu(AblationConfig& ac, double medianNs, const std::vector<const AblationRun*>& runs,
                         const MfuInputs& mfuInputs, const AblationOptions& opt, AblationSource source) {
    const double sec = medianNs / 1e9;
    const double tokens = tokensOf(runs, opt.tokensPerStep);
    const double optionFlops = opt.flopsPerStep > 0 ? opt.flopsPerStep : opt.flopsPerToken * tokens;
    ac.mfuBasis = resolveMfuBasis(optionFlops, opt.peakFlops, mfuInputs, tokens, recordsOf(runs));
    const double perStep = tokens > 0 ? tokens : 1.0;
    ac.throughputUnit = tokens > 0 ? "tokens/s" : "steps/s";
    ac.throughput = sec > 0 ? perStep / sec : 0;
    // Throughput is monotone decreasing in step time, so the step-time CI maps to its CI exactly.
    ac.throughputCiLo = ac.ciHiNs > 0 ? perStep / (static_cast<double>(ac.ciHiNs) / 1e9) : ac.throughput;
    ac.throughputCiHi = ac.ciLoNs > 0 ? perStep / (static_cast<double>(ac.ciLoNs) / 1e9) : ac.throughput;
    if (source == AblationSource::Log && ac.log && ac.log->throughput > 0) {
        ac.throughput = ac.throughputCiLo = ac.throughputCiHi = ac.log->throughput;
        ac.throughputUnit = ac.log->throughputUnit;
    }
    ac.mfu = modelFlopsUtilisation(ac.mfuBasis, sec, ac.worldSize);
}

// Configuration k against the baseline (speedup) and against k - 1 (gain, attribution by category).
void setComparisons(AblationResult& res, std::size_t k, std::size_t baseK,
                    const std::vector<std::vector<std::vector<Ns>>>& compared, const Bootstrap& bs) {
    auto& ac = res.configs[k];
    ac.speedupVsBaseline = ratio(bs, compared[baseK], compared[k]);
    if (k == 0)
        return;
    const auto& prev = res.configs[k - 1];
    ac.gainVsPrevious = ratio(bs, compared[k - 1], compared[k]);
    ExclusiveNs attr;
    for (std::size_t i = 0; i < ac.exclusiveMeanNs.size(); ++i)
        attr.emplace_back(res.categories[i], ac.exclusiveMeanNs[i].second - prev.exclusiveMeanNs[i].second);
    ac.attributionVsPreviousNs = std::move(attr);
    ac.attributionTotalNs = ac.meanStepNs - prev.meanStepNs;
}

} // namespace

AblationSelection selectAblation(const WorkspaceSettings& settings, const std::vector<AblationRun>& runs,
                                 const AblationOptions& opt) {
    AblationResult res;
    const auto in = chooseStudyRuns(settings, runs, opt, res);
    std::map<std::string, std::vector<const AblationRun*>> byConfig;
    std::set<std::string> elsewhere;
    splitByStudy(runs, in, byConfig, elsewhere);
    AblationSelection out;
    chooseConfigurations(settings, opt, byConfig, elsewhere, res, out.configs);
    out.studies = std::move(res.studies);
    out.study = std::move(res.study);
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (in[i])
            out.runs.push_back(runs[i].run.id);
    return out;
}

AblationResult computeAblation(const AblationInputs& in, const AblationOptions& opt) {
    const WorkspaceSettings& ws = in.settings;
    const MfuInputs mfuInputs = mfuInputsOf(ws);
    AblationResult res;
    const auto inStudy = chooseStudyRuns(ws, in.runs, opt, res);
    std::map<std::string, std::vector<const AblationRun*>> byConfig;
    std::set<std::string> elsewhere;
    splitByStudy(in.runs, inStudy, byConfig, elsewhere);
    res.source = opt.source.value_or(ablationSourceOf(ws));
    std::vector<std::string> order;
    chooseConfigurations(ws, opt, byConfig, elsewhere, res, order);
    if (opt.allStudies)
        addMixedStudiesWarning(res, byConfig, order);

    auto catOrder = in.categories;
    std::vector<std::vector<AblationStepSample>> samples;
    std::vector<std::vector<std::vector<Ns>>> compared; // per config, per run: the compared figure
    for (const auto& c : order) {
        std::vector<AblationStepSample> all;
        AblationConfig ac = tracedSamplesOf(c, byConfig.at(c), opt.skipFirstSteps, catOrder, all);
        std::vector<Ns> logSteps;
        ac.log =
            logFiguresOf(ws.path, c, byConfig.at(c), tokensOf(byConfig.at(c), opt.tokensPerStep), logSteps);
        if (res.source == AblationSource::Trace) {
            if (all.empty())
                throw InputError(ws.path, "configuration '" + c + "' has no traced GPU work to time" +
                                              (ac.log ? " (its runs have log figures: --source log)" : ""));
            compared.push_back(ac.stepTimesByRun);
        } else {
            if (logSteps.empty())
                throw InputError(ws.path, "configuration '" + c +
                                              "' has no step time from a log; enter one with `cnp edit "
                                              "--throughput VALUE --unit steps/s --run RUN` or compare "
                                              "traces (--source trace)");
            compared.push_back({});
            for (Ns t : logSteps)
                compared.back().push_back({t});
        }
        samples.push_back(std::move(all));
        res.configs.push_back(std::move(ac));
    }
    res.categories = catOrder.names;
    res.categories.emplace_back(kIdleCategory);

    const Bootstrap bs(opt.seed, opt.resamples);
    const auto baseK =
        static_cast<std::size_t>(std::find(order.begin(), order.end(), res.baseline) - order.begin());
    std::string unit;
    for (std::size_t k = 0; k < res.configs.size(); ++k) {
        auto& ac = res.configs[k];
        const double med = setMedianAndCi(ac, compared[k], bs, res.source);
        if (!samples[k].empty())
            setMeans(ac, samples[k], res.categories);
        else // untraced configuration compared by its log figures: no breakdown
            for (const auto& cat : res.categories)
                ac.exclusiveMeanNs.emplace_back(cat, 0);
        setThroughputAndMfu(ac, med, byConfig[ac.config], mfuInputs, opt, res.source);
        if (unit.empty())
            unit = ac.throughputUnit;
        else if (unit != ac.throughputUnit)
            throw InputError(ws.path,
                             "throughputs in different units (" + res.configs.front().config + ": " + unit +
                                 ", " + ac.config + ": " + ac.throughputUnit +
                                 "); give --tokens-per-step or record tokens per step for every run");
        setComparisons(res, k, baseK, compared, bs);
    }
    addFigureWarnings(res);
    addOverheadWarnings(res);
    return res;
}

} // namespace cnp
