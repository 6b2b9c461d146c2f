// cnp ablation WS [--baseline LABEL] [--order L1,L2,...] [--tokens-per-step N] [--json] ...
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/CommaList.h"
#include "metrics/Ablation.h"
#include "store/Workspace.h"

#include <algorithm>
#include <iostream>
#include <set>

namespace cnp::cli {
namespace {

void ratioJson(JsonOutput& j, const RatioWithCi& r) {
    j.beginObject()
        .key("value")
        .real(r.value)
        .key("ci95")
        .beginArray()
        .real(r.ci95.lo)
        .real(r.ci95.hi)
        .endArray();
    j.key("significant").boolean(r.significant).endObject();
}

int runAblation(const std::vector<std::string>& args) {
    ArgParser p({"--baseline", "--order", "--tokens-per-step", "--flops-per-step", "--peak-flops",
                 "--skip-first", "--resamples", "--seed"},
                {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    AblationOptions o;
    o.baseline = p.valueOr("--baseline", "");
    if (auto v = p.value("--order"))
        o.order = splitCommaList(*v);
    o.tokensPerStep = p.number("--tokens-per-step").value_or(0);
    o.flopsPerStep = p.number("--flops-per-step").value_or(0);
    o.peakFlops = p.number("--peak-flops").value_or(0);
    o.skipFirstSteps = static_cast<int>(p.number("--skip-first").value_or(0));
    o.resamples = static_cast<int>(p.number("--resamples").value_or(Bootstrap::kDefaultResamples));
    if (o.tokensPerStep < 0 || o.flopsPerStep < 0 || o.peakFlops < 0 || o.skipFirstSteps < 0)
        throw UsageFailure{"numeric options must be >= 0"};
    if (o.resamples < 1000)
        throw UsageFailure{"--resamples must be >= 1000"};
    if (auto s = p.number("--seed"))
        o.seed = static_cast<std::uint64_t>(*s);
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto res = computeAblation(ws, o);
    // Configurations with a generated run are flagged in every output: never mistaken for measurements.
    std::set<std::string> syntheticRuns;
    for (const auto& r : ws.runs())
        if (r.info.synthetic)
            syntheticRuns.insert(r.info.name);
    auto isSynthetic = [&](const AblationConfig& c) {
        return std::any_of(c.runs.begin(), c.runs.end(),
                           [&](const auto& r) { return syntheticRuns.count(r); });
    };

    if (p.has("--json")) {
        JsonOutput j;
        j.beginObject().key("baseline").str(res.baseline).key("resamples").num(o.resamples);
        j.key("configs").beginArray();
        for (const auto& c : res.configs) {
            j.beginObject().key("config").str(c.config).key("synthetic").boolean(isSynthetic(c));
            j.key("runs").num(static_cast<std::int64_t>(c.runs.size()));
            j.key("run_names").beginArray();
            for (const auto& r : c.runs)
                j.str(r);
            j.endArray();
            j.key("steps").num(static_cast<std::int64_t>(c.stepTimesNs.size()));
            j.key("step_time_ns").beginObject().key("median").num(c.medianStepNs);
            j.key("ci95").beginArray().num(c.ciLoNs).num(c.ciHiNs).endArray();
            j.key("mean").num(c.meanStepNs).key("values").beginArray();
            for (auto t : c.stepTimesNs)
                j.num(t);
            j.endArray().endObject();
            j.key("throughput")
                .beginObject()
                .key("value")
                .real(c.throughput)
                .key("unit")
                .str(c.throughputUnit);
            j.key("ci95").beginArray().real(c.throughputCiLo).real(c.throughputCiHi).endArray();
            j.endObject();
            j.key("mfu").real(c.mfu);
            j.key("speedup_vs_baseline");
            ratioJson(j, c.speedupVsBaseline);
            j.key("gain_vs_previous");
            if (c.gainVsPrevious)
                ratioJson(j, *c.gainVsPrevious);
            else
                j.null();
            const auto& b = c.breakdownMeanNs;
            j.key("breakdown_ns")
                .beginObject()
                .key("compute")
                .num(b.compute)
                .key("communication")
                .num(b.communication);
            j.key("overlap").num(b.overlap).key("memory").num(b.memory).key("idle").num(b.idle).endObject();
            j.key("exclusive_ns").beginObject();
            for (const auto& [cat, ns] : c.exclusiveMeanNs)
                j.key(cat).num(ns);
            j.endObject();
            j.key("attribution_vs_previous_ns");
            if (c.attributionVsPreviousNs) {
                j.beginObject();
                for (const auto& [cat, ns] : *c.attributionVsPreviousNs)
                    j.key(cat).num(ns);
                j.key("total").num(c.attributionTotalNs).endObject();
            } else {
                j.null();
            }
            j.endObject();
        }
        j.endArray().endObject();
        std::cout << j.text();
        return Ok;
    }

    using T = TableOutput;
    std::cout << "ablation over " << res.configs.size() << " configurations, baseline " << res.baseline
              << " (median step time, 95% bootstrap CI over steps, " << o.resamples << " resamples)\n\n";
    T t({"config", ">runs", ">steps", ">median step", ">95% CI", ">throughput", ">MFU", ">speedup",
         ">gain vs prev"});
    auto sig = [](const RatioWithCi& r) {
        return T::fixed(r.value, 3) + "x [" + T::fixed(r.ci95.lo, 3) + ", " + T::fixed(r.ci95.hi, 3) + "]" +
               (r.significant ? " *" : "");
    };
    for (const auto& c : res.configs)
        t.addRow(
            {c.config + (isSynthetic(c) ? " [synthetic]" : ""), std::to_string(c.runs.size()),
             std::to_string(c.stepTimesNs.size()), T::duration(static_cast<double>(c.medianStepNs)),
             T::duration(static_cast<double>(c.ciLoNs)) + " - " + T::duration(static_cast<double>(c.ciHiNs)),
             T::fixed(c.throughput, c.throughputUnit == "steps/s" ? 2 : 0) + " " + c.throughputUnit,
             c.mfu ? T::fixed(100 * *c.mfu, 1) + "%" : std::string("-"), sig(c.speedupVsBaseline),
             c.gainVsPrevious ? sig(*c.gainVsPrevious) : std::string("-")});
    t.print(std::cout);
    std::cout << "(* = significant: the CI of the ratio excludes 1)\n";
    if (std::any_of(res.configs.begin(), res.configs.end(), isSynthetic))
        std::cout << "[synthetic] = generated by cnp synth (a model, not a measurement; docs/synth.md)\n";
    std::cout << '\n';
    std::vector<std::string> h{"mean per step"};
    for (const auto& c : res.configs)
        h.push_back(">" + c.config);
    T e(h);
    for (std::size_t i = 0; i < res.categories.size(); ++i) {
        std::vector<std::string> row{res.categories[i]};
        for (const auto& c : res.configs)
            row.push_back(T::duration(static_cast<double>(c.exclusiveMeanNs[i].second)));
        e.addRow(row);
    }
    std::vector<std::string> total{"= step window"};
    for (const auto& c : res.configs)
        total.push_back(T::duration(static_cast<double>(c.meanStepNs)));
    e.addRow(total);
    e.print(std::cout);
    std::cout << "\nattribution of the change vs the previous configuration (mean step, exact)\n";
    T a(h);
    for (std::size_t i = 0; i < res.categories.size(); ++i) {
        std::vector<std::string> row{res.categories[i]};
        for (const auto& c : res.configs)
            row.push_back(c.attributionVsPreviousNs
                              ? T::duration(static_cast<double>((*c.attributionVsPreviousNs)[i].second))
                              : std::string("-"));
        a.addRow(row);
    }
    std::vector<std::string> tot{"total"};
    for (const auto& c : res.configs)
        tot.push_back(c.attributionVsPreviousNs ? T::duration(static_cast<double>(c.attributionTotalNs))
                                                : "-");
    a.addRow(tot);
    a.print(std::cout);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "ablation", "compare configurations: step time with CI, speedup, attribution",
    "usage: cnp ablation WS [--baseline LABEL] [--order L1,L2,...] [--tokens-per-step N] [--json]\n"
    "                       [--flops-per-step F --peak-flops P] [--skip-first N] [--resamples N] [--seed "
    "S]\n\n"
    "Per configuration (runs grouped by their --config label, in plan order): the median step time\n"
    "over all steps of all its runs with a seeded 95% percentile-bootstrap CI, throughput (tokens/s\n"
    "when tokens per step is known, else steps/s), MFU when FLOPs per step and peak FLOP/s are known,\n"
    "speedup vs the baseline and gain vs the previous configuration (each with a CI; significant when\n"
    "the CI excludes 1), the mean per-step breakdown and exclusive time per category, and the\n"
    "attribution of the mean step-time change to categories and idle (sums exactly to the total).\n\n"
    "  --baseline LABEL     baseline configuration (default: the first)\n"
    "  --order L1,L2,...    configurations to compare, in this order (default: the plan order)\n"
    "  --tokens-per-step N  tokens per step (overrides the runs' metadata)\n"
    "  --flops-per-step F   model FLOPs per step of the whole job, for MFU\n"
    "  --peak-flops P       peak FLOP/s of one GPU, for MFU\n"
    "  --skip-first N       drop the first N steps of every run (warm-up)\n"
    "  --resamples N        bootstrap resamples (default 2000, at least 1000)\n"
    "  --seed S             bootstrap seed (default fixed: results are reproducible)\n"
    "  --json               machine-readable output (docs/cli.md)\n",
    runAblation);

} // namespace cnp::cli
