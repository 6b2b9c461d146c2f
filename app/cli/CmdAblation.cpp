// cnp ablation WS [--baseline LABEL] [--order L1,L2,...] [--tokens-per-step N] [--json] ...
// MFU comes from computeAblation (resolveMfuBasis, modelFlopsUtilisation): the workbench's figures with
// --flops-per-token / --peak-flops in place of the Ablation page's fields.
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/CommaList.h"
#include "core/Units.h"
#include "requests/AblationRequest.h"
#include "requests/PredictionRequest.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cnp::cli {
namespace {

void ratioJson(JsonOutput& j, const RatioWithCi& r) {
    j.beginObject().key("value").real(r.value).key("ci95");
    if (r.hasCi)
        j.beginArray().real(r.ci95.lo).real(r.ci95.hi).endArray();
    else
        j.null();
    j.key("significant").boolean(r.significant).endObject();
}

void logJson(JsonOutput& j, const std::optional<LogFigures>& log) {
    if (!log) {
        j.null();
        return;
    }
    j.beginObject().key("runs").num(log->runs).key("throughput");
    if (log->throughput > 0)
        j.real(log->throughput);
    else
        j.null();
    j.key("unit").str(log->throughputUnit).key("step_time_ns");
    if (log->medianStepNs > 0)
        j.num(log->medianStepNs);
    else
        j.null();
    j.key("source").str(log->source).endObject();
}

void warningsJson(JsonOutput& j, const std::vector<AblationWarning>& warnings) {
    j.beginArray();
    for (const auto& w : warnings) {
        j.beginObject().key("config").str(w.config).key("kind").str(w.kind).key("message").str(w.message);
        j.key("speedup_range");
        if (w.speedupRange)
            j.beginObject()
                .key("low")
                .real(w.speedupRange->low)
                .key("high")
                .real(w.speedupRange->high)
                .endObject();
        else
            j.null();
        j.endObject();
    }
    j.endArray();
}

// "8.192e+12": FLOP figures, four significant digits (JSON carries the exact value).
std::string flopText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

void mfuBasisJson(JsonOutput& j, const MfuBasis& b) {
    j.beginObject().key("flops_per_step");
    if (b.flopsPerStep > 0)
        j.real(b.flopsPerStep);
    else
        j.null();
    j.key("flops_source").str(b.flopsSource).key("peak_flops");
    if (b.peakFlops > 0)
        j.real(b.peakFlops);
    else
        j.null();
    j.key("peak_source").str(b.peakSource).key("default_gpu").str(b.defaultGpu).endObject();
}

// What the MFU column rests on, one line per distinct basis (with its configurations when they differ):
// "MFU rests on: FLOPs per step 8.192e+12 (option), peak 2e+15 FLOP/s per GPU (option)". Nothing when
// no configuration has an MFU.
void printMfuBasis(std::ostream& out, const AblationResult& res) {
    std::vector<std::pair<std::string, std::vector<std::string>>> lines; // text -> configurations
    for (const auto& c : res.configs) {
        if (!c.mfu)
            continue;
        const MfuBasis& b = c.mfuBasis;
        std::string text = "FLOPs per step " + flopText(b.flopsPerStep) + " (" + b.flopsSource + "), peak " +
                           flopText(b.peakFlops) + " FLOP/s per GPU (" + b.peakSource +
                           (b.defaultGpu.empty() ? std::string() : " " + b.defaultGpu) + ")";
        auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == text; });
        if (it == lines.end())
            lines.push_back({text, {c.config}});
        else
            it->second.push_back(c.config);
    }
    for (const auto& [text, configs] : lines) {
        out << "MFU rests on: " << text;
        if (lines.size() > 1) {
            out << " for";
            for (const auto& c : configs)
                out << " [" << c << "]";
        }
        out << '\n';
    }
}

// B's prediction from A (docs/cli.md, "cnp ablation"); null when B states no expectation.
void predictionJson(JsonOutput& j, const StepPrediction* p) {
    if (!p) {
        j.null();
        return;
    }
    j.beginObject().key("from").str(p->from).key("from_run").str(p->fromRun);
    j.key("expectation").str(p->expectation).key("scenario").str(p->scenario).key("ratio").real(p->ratio);
    j.key("predicted_ns").num(p->predictedStepNs).key("measured_ns").num(p->measuredStepNs);
    j.key("error").real(p->error).key("biggest_miss").beginObject().key("category").str(p->missCategory);
    j.key("predicted_change_ns").num(p->missPredictedNs).key("measured_change_ns").num(p->missMeasuredNs);
    j.endObject().endObject();
}

const StepPrediction* predictionOf(const AblationPredictions& predictions, const std::string& config) {
    for (const auto& p : predictions.steps)
        if (p.to == config)
            return &p;
    return nullptr;
}

void configJson(JsonOutput& j, const AblationConfig& c, bool synthetic, const StepPrediction* predicted) {
    j.beginObject().key("config").str(c.config).key("synthetic").boolean(synthetic);
    j.key("runs").num(static_cast<std::int64_t>(c.runs.size()));
    j.key("run_names").beginArray();
    for (const auto& r : c.runs)
        j.str(r);
    j.endArray();
    j.key("steps").num(static_cast<std::int64_t>(c.stepTimesNs.size()));
    j.key("step_time_ns").beginObject().key("median").num(c.medianStepNs).key("ci95");
    if (c.hasCi)
        j.beginArray().num(c.ciLoNs).num(c.ciHiNs).endArray();
    else
        j.null();
    j.key("ci_missing_reason");
    if (c.hasCi)
        j.null();
    else
        j.str(c.ciMissingReason);
    j.key("traced_median").num(c.tracedMedianStepNs);
    j.key("mean").num(c.meanStepNs).key("values").beginArray();
    for (auto t : c.stepTimesNs)
        j.num(t);
    j.endArray().endObject();
    j.key("log");
    logJson(j, c.log);
    j.key("profiler_overhead").beginObject().key("launch_bound_share").real(c.overhead.launchBoundShare);
    j.key("profiler").str(c.overhead.profiler).key("cpu_ranges_per_ms").real(c.overhead.cpuRangesPerMs);
    j.endObject();
    j.key("throughput").beginObject().key("value").real(c.throughput).key("unit").str(c.throughputUnit);
    j.key("ci95");
    if (c.hasCi)
        j.beginArray().real(c.throughputCiLo).real(c.throughputCiHi).endArray();
    else
        j.null();
    j.endObject();
    j.key("mfu").real(c.mfu);
    j.key("mfu_basis");
    mfuBasisJson(j, c.mfuBasis);
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
    j.key("predicted");
    predictionJson(j, predicted);
    j.endObject();
}

// The options from the command line; throws UsageFailure for a bad value.
AblationOptions ablationOptionsOf(const ArgParser& p) {
    AblationOptions o;
    o.study = p.valueOr("--study", "");
    o.allStudies = p.has("--all-studies");
    if (o.allStudies && !o.study.empty())
        throw UsageFailure{"give --study NAME or --all-studies, not both"};
    o.baseline = p.valueOr("--baseline", "");
    if (auto v = p.value("--order"))
        o.order = splitCommaList(*v);
    o.tokensPerStep = p.number("--tokens-per-step", bounds::kTokensPerStep).value_or(0);
    o.flopsPerStep = p.number("--flops-per-step", bounds::kFlopsPerStep).value_or(0);
    o.flopsPerToken = p.number("--flops-per-token", bounds::kFlopsPerToken).value_or(0);
    o.peakFlops = p.number("--peak-flops", bounds::kPeakFlops).value_or(0);
    o.skipFirstSteps = static_cast<int>(p.number("--skip-first", 0, 1e9).value_or(0));
    o.resamples = static_cast<int>(p.number("--resamples", 0, 1e9).value_or(Bootstrap::kDefaultResamples));
    if (o.tokensPerStep < 0 || o.flopsPerStep < 0 || o.flopsPerToken < 0 || o.peakFlops < 0 ||
        o.skipFirstSteps < 0)
        throw UsageFailure{"numeric options must be >= 0"};
    if (p.value("--flops-per-step") && p.value("--flops-per-token"))
        throw UsageFailure{"give --flops-per-step or --flops-per-token, not both"};
    if (o.resamples < 1000)
        throw UsageFailure{"--resamples must be >= 1000"};
    if (auto s = p.number("--seed", 0, 1.8e19))
        o.seed = static_cast<std::uint64_t>(*s);
    if (auto s = p.value("--source")) {
        o.source = ablationSourceFrom(*s);
        if (!o.source)
            throw UsageFailure{"--source must be trace or log"};
    }
    return o;
}

// Configurations with a generated run are flagged in every output: never mistaken for measurements.
using SyntheticTest = std::function<bool(const AblationConfig&)>;

// "studies": every study of the workspace, newest first, with what groups its runs.
void studiesJson(JsonOutput& j, const AblationResult& res) {
    j.key("study");
    if (res.study.empty())
        j.null();
    else
        j.str(res.study);
    j.key("studies").beginArray();
    for (const auto& s : res.studies) {
        j.beginObject().key("name").str(s.name).key("origin").str(toString(s.origin));
        j.key("runs").num(static_cast<std::int64_t>(s.runs.size()));
        j.key("configs").beginArray();
        for (const auto& c : s.configs)
            j.str(c);
        j.endArray();
        j.key("min_world_size").num(s.minWorldSize).key("max_world_size").num(s.maxWorldSize);
        j.key("synthetic").boolean(s.synthetic).endObject();
    }
    j.endArray();
}

void printAblationJson(const AblationResult& res, const AblationOptions& o, const SyntheticTest& isSynthetic,
                       const AblationPredictions& predictions) {
    JsonOutput j;
    j.beginObject();
    studiesJson(j, res);
    j.key("baseline").str(res.baseline).key("resamples").num(o.resamples);
    j.key("source")
        .str(toString(res.source))
        .key("min_steps_for_ci")
        .num(static_cast<std::int64_t>(kMinSamplesForCi));
    j.key("configs").beginArray();
    for (const auto& c : res.configs)
        configJson(j, c, isSynthetic(c), predictionOf(predictions, c.config));
    j.endArray();
    j.key("not_in_plan").beginArray();
    for (const auto& c : res.notInPlan)
        j.str(c);
    j.endArray();
    j.key("warnings");
    warningsJson(j, res.warnings);
    j.key("prediction_notes").beginArray();
    for (const auto& n : predictions.notes)
        j.str(n);
    j.endArray();
    j.endObject();
    std::cout << j.text();
}

// The figures table, the MFU basis, the notes and the warnings.
void printAblationSummary(const AblationResult& res, const AblationOptions& o,
                          const SyntheticTest& isSynthetic) {
    using T = TableOutput;
    if (res.studies.size() > 1) {
        std::cout << (res.study.empty() ? std::string("all studies (mixed)") : "study '" + res.study + "'")
                  << " of " << res.studies.size() << " in the workspace; the others:";
        for (const auto& s : res.studies)
            if (s.name != res.study)
                std::cout << " '" << s.name << "'";
        std::cout << " (--study NAME)\n";
    }
    std::cout << "ablation over " << res.configs.size() << " configurations, baseline " << res.baseline
              << " ("
              << (res.source == AblationSource::Log ? "median step time from the runs' logs"
                                                    : "median traced step time")
              << ", 95% bootstrap CI, " << o.resamples << " resamples; no CI below " << kMinSamplesForCi
              << " samples)\n\n";
    T t({"config", ">runs", ">steps", ">median step", ">95% CI", ">traced", ">log", ">throughput", ">MFU",
         ">speedup", ">gain vs prev"});
    auto sig = [](const RatioWithCi& r) {
        return units::ratioWithCi(r.value, r.hasCi, r.ci95.lo, r.ci95.hi) +
               (r.hasCi && r.significant ? " *" : "");
    };
    for (const auto& c : res.configs)
        t.addRow({c.config + (isSynthetic(c) ? " [synthetic]" : ""), std::to_string(c.runs.size()),
                  std::to_string(c.stepTimesNs.size()), units::duration(static_cast<double>(c.medianStepNs)),
                  c.hasCi ? units::duration(static_cast<double>(c.ciLoNs)) + " - " +
                                units::duration(static_cast<double>(c.ciHiNs))
                          : std::string("too few steps"),
                  c.tracedMedianStepNs > 0 ? units::duration(static_cast<double>(c.tracedMedianStepNs)) : "-",
                  c.log && c.log->medianStepNs > 0 ? units::duration(static_cast<double>(c.log->medianStepNs))
                                                   : "-",
                  units::rate(c.throughput, c.throughputUnit),
                  c.mfu ? units::percent(*c.mfu) : std::string("-"), sig(c.speedupVsBaseline),
                  c.gainVsPrevious ? sig(*c.gainVsPrevious) : std::string("-")});
    t.print(std::cout);
    std::cout << "(* = significant: the CI of the ratio excludes 1)\n";
    printMfuBasis(std::cout, res);
    if (std::any_of(res.configs.begin(), res.configs.end(), isSynthetic))
        std::cout << "[synthetic] = generated by cnp synth (a model, not a measurement; docs/synth.md)\n";
    if (!res.notInPlan.empty()) {
        std::cout << "not in the plan (not compared):";
        for (const auto& c : res.notInPlan)
            std::cout << " [" << c << "]";
        std::cout << '\n';
    }
    for (const auto& w : res.warnings)
        std::cout << "warning: " << w.message << '\n';
}

// Mean exclusive time per step and category, and its exact attribution vs the previous configuration.
void printAblationMeans(const AblationResult& res) {
    using T = TableOutput;
    std::vector<std::string> h{"mean per step"};
    for (const auto& c : res.configs)
        h.push_back(">" + c.config);
    T e(h);
    for (std::size_t i = 0; i < res.categories.size(); ++i) {
        std::vector<std::string> row{res.categories[i]};
        for (const auto& c : res.configs)
            row.push_back(units::duration(static_cast<double>(c.exclusiveMeanNs[i].second)));
        e.addRow(row);
    }
    std::vector<std::string> total{"= step window"};
    for (const auto& c : res.configs)
        total.push_back(units::duration(static_cast<double>(c.meanStepNs)));
    e.addRow(total);
    e.print(std::cout);
    std::cout << "\nattribution of the change vs the previous configuration (mean step, exact)\n";
    T a(h);
    for (std::size_t i = 0; i < res.categories.size(); ++i) {
        std::vector<std::string> row{res.categories[i]};
        for (const auto& c : res.configs)
            row.push_back(c.attributionVsPreviousNs
                              ? units::duration(static_cast<double>((*c.attributionVsPreviousNs)[i].second))
                              : std::string("-"));
        a.addRow(row);
    }
    std::vector<std::string> tot{"total"};
    for (const auto& c : res.configs)
        tot.push_back(c.attributionVsPreviousNs ? units::duration(static_cast<double>(c.attributionTotalNs))
                                                : "-");
    a.addRow(tot);
    a.print(std::cout);
}

// Predict, then measure: each step whose configuration states an expectation, predicted from the previous
// configuration's trace beside what it measured, and the biggest miss.
void printPredictions(const AblationPredictions& predictions) {
    auto signedDuration = [](Ns ns) {
        return (ns < 0 ? "-" : "+") + units::duration(static_cast<double>(ns < 0 ? -ns : ns));
    };
    auto signedPercent = [](double f) { return (f < 0 ? "" : "+") + units::percent(f); };
    if (predictions.steps.empty() && predictions.notes.empty())
        return;
    std::cout << "\npredict, then measure (each expectation re-timed on the previous configuration's trace; "
                 "docs/metrics.md)\n";
    TableOutput t({"step", "expectation", ">predicted", ">measured", ">error", "biggest miss"});
    for (const auto& p : predictions.steps)
        t.addRow({p.from + " -> " + p.to, p.scenario, units::duration(static_cast<double>(p.predictedStepNs)),
                  units::duration(static_cast<double>(p.measuredStepNs)), signedPercent(p.error),
                  p.missCategory + " (predicted " + signedDuration(p.missPredictedNs) + ", measured " +
                      signedDuration(p.missMeasuredNs) + ")"});
    if (!predictions.steps.empty())
        t.print(std::cout);
    for (const auto& n : predictions.notes)
        std::cout << "note: " << n << '\n';
}

// `--expect CONFIG=TEXT`: the expectation of one configuration for this ablation (not stored).
std::map<std::string, std::string> expectationOverrides(const ArgParser& p) {
    std::map<std::string, std::string> out;
    if (auto v = p.value("--expect")) {
        const auto eq = v->find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageFailure{"--expect: '" + *v +
                               "' is not CONFIG=TRANSFORMATIONS (e.g. Base+ACCL=comm=0.5)"};
        out[v->substr(0, eq)] = v->substr(eq + 1);
    }
    return out;
}

int runAblation(const std::vector<std::string>& args) {
    ArgParser p({"--baseline", "--order", "--tokens-per-step", "--flops-per-step", "--flops-per-token",
                 "--peak-flops", "--skip-first", "--resamples", "--seed", "--source", "--expect", "--study"},
                {"--json", "--all-studies"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const AblationOptions o = ablationOptionsOf(p);
    const auto overrides = expectationOverrides(p);
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto res = computeAblation(ws, o);
    const AblationPredictions predictions = predictAblation(ws, res, overrides);
    std::set<std::string> syntheticRuns;
    for (const auto& r : ws.runs())
        if (r.info.synthetic)
            syntheticRuns.insert(r.info.name);
    const SyntheticTest isSynthetic = [&](const AblationConfig& c) {
        return std::any_of(c.runs.begin(), c.runs.end(),
                           [&](const auto& r) { return syntheticRuns.count(r); });
    };
    if (p.has("--json")) {
        printAblationJson(res, o, isSynthetic, predictions);
        return Ok;
    }
    printAblationSummary(res, o, isSynthetic);
    std::cout << '\n';
    printAblationMeans(res);
    printPredictions(predictions);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "ablation", "compare configurations: step time with CI, speedup, attribution",
    "usage: cnp ablation WS [--baseline LABEL] [--order L1,L2,...] [--tokens-per-step N] [--json]\n"
    "                       [--flops-per-step F | --flops-per-token F] [--peak-flops P] [--skip-first N]\n"
    "                       [--resamples N] [--seed S] [--source trace|log] [--expect CONFIG=TEXT]\n"
    "                       [--study NAME | --all-studies]\n\n"
    "Per configuration (runs grouped by their --config label; only the plan order's configurations,\n"
    "the others are listed as not in the plan): the median step time over all steps of all its runs\n"
    "with a seeded 95% bootstrap CI (runs, then steps, resampled; none below 5 steps), the traced and\n"
    "the log-reported step time side by side, warnings on profiler overhead, throughput (tokens/s\n"
    "when tokens per step is known, else steps/s), MFU when FLOPs per step and peak FLOP/s are known,\n"
    "speedup vs the baseline and gain vs the previous configuration (each with a CI; significant when\n"
    "the CI excludes 1), the mean per-step breakdown and exclusive time per category, and the\n"
    "attribution of the mean step-time change to categories and idle (sums exactly to the total).\n\n"
    "Only the runs of one study are compared: runs carry a study (run attribute `study`: cnp ingest\n"
    "--study, cnp edit --study, cnp synth, cnp run's plan name; else grouped by GPU count and model,\n"
    "docs/metrics.md \"Studies\"). Default: the newest study holding the configurations named by\n"
    "--order and --baseline, else the study of the most recently ingested run.\n\n"
    "  --study NAME         compare the runs of study NAME (the JSON's \"studies\" lists them)\n"
    "  --all-studies        compare runs of every study together (warned: mixed-studies)\n"
    "  --baseline LABEL     baseline configuration (default: the first)\n"
    "  --order L1,L2,...    configurations to compare, in this order (default: the plan order)\n"
    "  --tokens-per-step N  tokens per step (overrides the runs' metadata)\n"
    "  --flops-per-step F   model FLOPs per step of the whole job, for MFU\n"
    "  --flops-per-token F  model FLOPs of one token (whole model, forward + backward), for MFU: x each\n"
    "                       configuration's tokens per step (the workbench's MFU field, not stored)\n"
    "  --peak-flops P       peak FLOP/s of one GPU, for MFU (default: the workspace's, the runs', else\n"
    "                       the datasheet figure of the runs' GPU model)\n"
    "  --skip-first N       drop the first N steps of every run (warm-up)\n"
    "  --resamples N        bootstrap resamples (default 2000, at least 1000)\n"
    "  --seed S             bootstrap seed (default fixed: results are reproducible)\n"
    "  --source trace|log   compare traced step windows or the step times the runs' logs reported\n"
    "                       (default: the workspace's choice, meta ablation_source, else trace)\n"
    "  --expect CONFIG=TEXT what CONFIG is expected to change, for this ablation only (default: its runs'\n"
    "                       plan.expect, from the plan's expect: or cnp edit --expect), e.g.\n"
    "                       Base+ACCL=comm=0.5: predicted from the previous configuration's trace and set\n"
    "                       beside the measured step (predict, then measure; docs/metrics.md)\n"
    "  --json               machine-readable output (docs/cli.md)\n",
    runAblation);

} // namespace cnp::cli
