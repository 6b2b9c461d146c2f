// What the study measured: throughput per configuration with CIs and speedups, the incremental gains,
// where the time went and what each step bought (docs/metrics.md, "Ablation").
#include "core/Units.h"
#include "report/Palette.h"
#include "report/ReportSections.h"
#include "requests/PredictionRequest.h"

#include <algorithm>

namespace cnp::report::detail {

namespace {

std::string unitOf(const AblationResult& a) {
    return a.configs.empty() ? "steps/s" : a.configs.front().throughputUnit;
}

Cell ratioCell(const RatioWithCi& r) {
    Cell c = numberCell(
        ratioText(r) + (r.significant || !r.hasCi ? "" : " n.s."),
        {r.value, r.hasCi ? r.ci95.lo : kUnknown, r.hasCi ? r.ci95.hi : kUnknown, r.significant ? 1.0 : 0.0});
    c.muted = !r.significant;
    return c;
}

std::vector<std::string> ratioKeys(const std::string& key) {
    return {key, key + "_ci_lo", key + "_ci_hi", key + "_significant"};
}

Figure ablationFigure(const StudyContext& c) {
    BarChart chart{unitOf(c.ablation), {}};
    for (const auto& cfg : c.ablation.configs) {
        Bar b;
        b.label = cfg.config;
        b.value = cfg.throughput;
        b.errLo = cfg.throughputCiLo;
        b.errHi = cfg.throughputCiHi;
        b.color = c.colorOf(cfg.config);
        const bool isBaseline = cfg.config == c.ablation.baseline;
        // On a line of its own (narrow bars). Without a CI (too few steps) "n.s." would claim a CI that
        // includes 1.
        const char* qualifier = cfg.speedupVsBaseline.significant || isBaseline ? ""
                                : cfg.speedupVsBaseline.hasCi                   ? "\nn.s."
                                                                                : "\nno CI";
        b.annotation = units::ratio(cfg.speedupVsBaseline.value) + qualifier;
        b.muted = !cfg.speedupVsBaseline.significant && !isBaseline;
        chart.bars.push_back(b);
    }
    return {"Throughput per configuration (median, 95% CI); speedup vs " + c.ablation.baseline +
                " above each bar",
            chart};
}

Table ablationTable(const StudyContext& c) {
    Table t{"ablation",
            {textColumn("Configuration", "configuration"), numberColumn("Runs", {"runs"}),
             numberColumn("Steps", {"steps"}), numberColumn("Median step (ms)", {"median_step_ns"}),
             numberColumn("95% CI (ms)", {"median_step_ci_lo_ns", "median_step_ci_hi_ns"}),
             numberColumn("Throughput", {"throughput", "throughput_ci_lo", "throughput_ci_hi"}),
             numberColumn("MFU", {"mfu"}), numberColumn("Speedup vs baseline [95% CI]", ratioKeys("speedup")),
             numberColumn("Gain vs previous [95% CI]", ratioKeys("gain"))},
            {}};
    for (const auto& cfg : c.ablation.configs) {
        std::vector<Cell> row;
        row.push_back(textCell(cfg.config, c.colorOf(cfg.config)));
        row.push_back(numberCell(std::to_string(cfg.runs.size()), {static_cast<double>(cfg.runs.size())}));
        row.push_back(numberCell(std::to_string(cfg.stepTimesNs.size()),
                                 {static_cast<double>(cfg.stepTimesNs.size())}));
        row.push_back(nsCell(cfg.medianStepNs));
        if (cfg.hasCi)
            row.push_back(numberCell(ms(cfg.ciLoNs) + " – " + ms(cfg.ciHiNs),
                                     {static_cast<double>(cfg.ciLoNs), static_cast<double>(cfg.ciHiNs)}));
        else
            row.push_back(numberCell("too few steps", {kUnknown, kUnknown}));
        row.push_back(numberCell(units::rate(cfg.throughput, cfg.throughputUnit),
                                 {cfg.throughput, cfg.hasCi ? cfg.throughputCiLo : kUnknown,
                                  cfg.hasCi ? cfg.throughputCiHi : kUnknown}));
        row.push_back(numberCell(cfg.mfu ? units::percent(*cfg.mfu) : "–", {cfg.mfu ? *cfg.mfu : kUnknown}));
        if (cfg.config == c.ablation.baseline)
            row.push_back(numberCell("baseline", {1, 1, 1, 0}));
        else
            row.push_back(ratioCell(cfg.speedupVsBaseline));
        if (cfg.gainVsPrevious)
            row.push_back(ratioCell(*cfg.gainVsPrevious));
        else
            row.push_back(numberCell("–", {kUnknown, kUnknown, kUnknown, kUnknown}));
        t.rows.push_back(std::move(row));
    }
    return t;
}

// The caveats that qualify the ablation's numbers: the analysis' own warnings (profiler overhead, too few
// samples for a CI, log vs trace), configurations left out of the plan, synthetic data.
NoteList ablationWarnings(const StudyContext& c) {
    NoteList w;
    for (const auto& aw : c.ablation.warnings)
        w.notes.push_back({InsightSeverity::Warning,
                           (aw.config.empty() ? std::string() : aw.config + ": ") + aw.kind,
                           aw.message,
                           {}});
    if (!c.ablation.notInPlan.empty()) {
        std::string names;
        for (const auto& n : c.ablation.notInPlan)
            names += (names.empty() ? "" : ", ") + n;
        w.notes.push_back(
            {InsightSeverity::Info,
             "not in the plan",
             "Runs of these configurations are not compared (not in the plan order): " + names + ".",
             {}});
    }
    // One note for every configuration with synthetic runs (issue 32.10: it was repeated per configuration).
    std::string synthetic;
    for (const auto& cfg : c.ablation.configs) {
        const auto& runs = c.runsOf.at(cfg.config);
        if (std::any_of(runs.begin(), runs.end(), [](const RunRecord* r) { return r->info.synthetic; }))
            synthetic += (synthetic.empty() ? "" : ", ") + cfg.config;
    }
    if (!synthetic.empty())
        w.notes.push_back({InsightSeverity::Warning,
                           "synthetic data",
                           "These configurations have synthetic runs (generated, not measured): " +
                               synthetic + ". Their numbers demonstrate the analysis, not the hardware.",
                           {}});
    return w;
}

// The exclusive categories (and idle) that have time in some configuration, in priority order: the
// others would only add empty columns and legend entries.
std::vector<std::string> usedCategories(const AblationResult& a) {
    std::vector<std::string> used;
    for (const auto& cat : a.categories)
        for (const auto& cfg : a.configs) {
            const auto it = std::find_if(cfg.exclusiveMeanNs.begin(), cfg.exclusiveMeanNs.end(),
                                         [&](const auto& e) { return e.first == cat; });
            if (it != cfg.exclusiveMeanNs.end() && it->second != 0) {
                used.push_back(cat);
                break;
            }
        }
    return used;
}

// Predict, then measure (docs/metrics.md): each step whose configuration states an expectation,
// predicted from the previous configuration's trace, beside what it measured, and the biggest miss.
Table predictionTable(const AblationPredictions& p) {
    Table t{"predictions",
            {textColumn("Step", "step"), textColumn("Expected", "expectation"),
             numberColumn("Predicted (ms)", {"predicted_ns"}), numberColumn("Measured (ms)", {"measured_ns"}),
             numberColumn("Error", {"error"}), textColumn("Biggest miss", "biggest_miss")},
            {}};
    auto signedMs = [](Ns ns) { return (ns < 0 ? "-" : "+") + ms(ns < 0 ? -ns : ns); };
    for (const StepPrediction& s : p.steps) {
        std::vector<Cell> row;
        row.push_back(textCell(s.from + " → " + s.to));
        row.push_back(textCell(s.scenario + " (from " + s.fromRun + ")"));
        row.push_back(nsCell(s.predictedStepNs));
        row.push_back(nsCell(s.measuredStepNs));
        row.push_back(numberCell((s.error >= 0 ? "+" : "") + units::percent(s.error), {s.error}));
        row.push_back(textCell(s.missCategory + ": predicted " + signedMs(s.missPredictedNs) +
                               " ms, measured " + signedMs(s.missMeasuredNs) + " ms"));
        t.rows.push_back(std::move(row));
    }
    return t;
}

void addPredictions(const StudyContext& c, Section& s) {
    const AblationPredictions p = predictAblation(c.ws, c.ablation);
    if (p.steps.empty() && p.notes.empty())
        return;
    s.blocks.push_back(Heading{"Predict, then measure"});
    s.blocks.push_back(Paragraph{
        "Each configuration that states what it is expected to change (its plan's expect:) is predicted from "
        "the previous configuration's trace alone: the expectation re-times that trace's dependency graph "
        "(what-if), and the ratio applied to its median step is set beside the step time measured. The "
        "biggest miss is the category whose predicted change per step differs most from the measured one."});
    if (!p.steps.empty())
        s.blocks.push_back(predictionTable(p));
    if (!p.notes.empty()) {
        NoteList notes;
        for (const std::string& n : p.notes)
            notes.notes.push_back({InsightSeverity::Info, "prediction", n, {}});
        s.blocks.push_back(std::move(notes));
    }
}

} // namespace

Section ablationSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Ablation);
    s.blocks.push_back(Paragraph{
        "Throughput per configuration in report order (median over all steps of all runs), with the 95% "
        "bootstrap confidence interval as error bars and the speedup over the baseline " +
        c.ablation.baseline +
        " above each bar. \"n.s.\" marks a ratio whose CI includes 1 (not significant), \"no CI\" one "
        "without a CI "
        "(fewer than " +
        std::to_string(kMinSamplesForCi) + " steps on either side)."});
    s.blocks.push_back(ablationFigure(c));
    s.blocks.push_back(ablationTable(c));
    addPredictions(c, s);
    auto warnings = ablationWarnings(c);
    if (!warnings.notes.empty()) {
        s.blocks.push_back(Heading{"Warnings"});
        s.blocks.push_back(std::move(warnings));
    }
    return s;
}

Section waterfallSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Waterfall);
    const auto& cfgs = c.ablation.configs;
    s.blocks.push_back(
        Paragraph{"Throughput gained (or lost) by each configuration over the previous one, from the first "
                  "configuration to the last. Light bars are changes whose gain CI includes 1."});
    if (cfgs.size() < 2) {
        s.blocks.push_back(Paragraph{"One configuration only: nothing to compare."});
        return s;
    }
    const std::string unit = unitOf(c.ablation);
    WaterfallChart chart{unit,
                         cfgs.front().config,
                         "= " + cfgs.back().config,
                         cfgs.front().throughput,
                         {},
                         c.colorOf(cfgs.front().config),
                         c.colorOf(cfgs.back().config)};
    Table t{"waterfall",
            {textColumn("Configuration", "configuration"), numberColumn("Throughput", {"throughput"}),
             numberColumn("Change vs previous", {"delta_throughput"}),
             numberColumn("Gain vs previous [95% CI]", ratioKeys("gain"))},
            {}};
    t.rows.push_back({textCell(cfgs.front().config, c.colorOf(cfgs.front().config)),
                      numberCell(units::rate(cfgs.front().throughput, unit), {cfgs.front().throughput}),
                      numberCell("–", {kUnknown}),
                      numberCell("–", {kUnknown, kUnknown, kUnknown, kUnknown})});
    for (std::size_t i = 1; i < cfgs.size(); ++i) {
        const double delta = cfgs[i].throughput - cfgs[i - 1].throughput;
        const bool significant = cfgs[i].gainVsPrevious && cfgs[i].gainVsPrevious->significant;
        chart.steps.push_back({cfgs[i].config, delta, significant});
        Cell d = numberCell((delta >= 0 ? "+" : "−") + units::rate(std::abs(delta), unit), {delta});
        d.sign = delta > 0 ? -1 : delta < 0 ? 1 : 0; // more throughput is better
        t.rows.push_back({textCell(cfgs[i].config, c.colorOf(cfgs[i].config)),
                          numberCell(units::rate(cfgs[i].throughput, unit), {cfgs[i].throughput}),
                          std::move(d), ratioCell(*cfgs[i].gainVsPrevious)});
    }
    s.blocks.push_back(
        Figure{"Incremental throughput gains, " + cfgs.front().config + " → " + cfgs.back().config, chart});
    s.blocks.push_back(std::move(t));
    return s;
}

Section breakdownSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Breakdown);
    s.blocks.push_back(Paragraph{
        "Mean step window per configuration split into exact parts (compute, exposed communication, "
        "exposed memory copies, idle; docs/metrics.md). Overlap is communication hidden under compute and "
        "is not part of the sum."});
    StackedChart chart{"ms per step (mean)", 1e6, {}};
    Table t{"breakdown",
            {textColumn("Configuration", "configuration"), numberColumn("Mean step (ms)", {"mean_step_ns"}),
             numberColumn("Compute", {"compute_ns"}),
             numberColumn("Exposed comm.", {"exposed_communication_ns"}),
             numberColumn("Overlap", {"overlap_ns"}), numberColumn("Exposed memory", {"exposed_memory_ns"}),
             numberColumn("Idle", {"idle_ns"})},
            {}};
    for (const auto& cfg : c.ablation.configs) {
        const auto& b = cfg.breakdownMeanNs;
        chart.bars.push_back(
            {cfg.config,
             {{"compute", static_cast<double>(b.compute), palette::categoryColor("compute")},
              {"exposed communication", static_cast<double>(b.communication),
               palette::categoryColor("communication")},
              {"exposed memory", static_cast<double>(b.memory), palette::categoryColor("memory")},
              {"idle", static_cast<double>(b.idle), palette::categoryColor("idle")}}});
        t.rows.push_back({textCell(cfg.config, c.colorOf(cfg.config)), nsCell(cfg.meanStepNs),
                          nsCell(b.compute), nsCell(b.communication), nsCell(b.overlap), nsCell(b.memory),
                          nsCell(b.idle)});
    }
    s.blocks.push_back(Figure{"Mean step window by part (ms)", chart});
    s.blocks.push_back(std::move(t));
    // The same windows by exclusive category: the parts the attribution below differences.
    StackedChart byCategory{"ms per step (mean)", 1e6, {}};
    const auto used = usedCategories(c.ablation);
    for (const auto& cfg : c.ablation.configs) {
        StackedBar bar{cfg.config, {}};
        for (const auto& [cat, ns] : cfg.exclusiveMeanNs)
            if (std::find(used.begin(), used.end(), cat) != used.end())
                bar.parts.push_back({cat, static_cast<double>(ns), palette::categoryColor(cat)});
        byCategory.bars.push_back(std::move(bar));
    }
    s.blocks.push_back(Figure{"Mean step window by exclusive kernel category (ms)", byCategory});
    return s;
}

Section attributionSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Attribution);
    s.blocks.push_back(Paragraph{
        "Change of the mean step time against the previous configuration, attributed to kernel categories "
        "and idle time (exclusive time; the parts sum exactly to the total). Negative is faster."});
    // Categories without time in any configuration have no change to attribute.
    const auto categories = usedCategories(c.ablation);
    Table t{"attribution", {textColumn("Configuration", "configuration")}, {}};
    for (const auto& cat : categories)
        t.columns.push_back(numberColumn(cat, {cat + "_ns"}));
    t.columns.push_back(numberColumn("Total (ms)", {"total_ns"}));
    DivergingChart chart{"ms per step (mean), change vs previous", 1e6, {}};
    for (const auto& cfg : c.ablation.configs) {
        if (!cfg.attributionVsPreviousNs)
            continue;
        DivergingRow bar{cfg.config, {}, static_cast<double>(cfg.attributionTotalNs)};
        for (const auto& [cat, ns] : *cfg.attributionVsPreviousNs)
            if (ns != 0)
                bar.parts.push_back({cat, static_cast<double>(ns), palette::categoryColor(cat)});
        chart.rows.push_back(std::move(bar));
        std::vector<Cell> row{textCell(cfg.config, c.colorOf(cfg.config))};
        for (const auto& cat : categories) {
            Ns v = 0;
            for (const auto& [name, ns] : *cfg.attributionVsPreviousNs)
                if (name == cat)
                    v = ns;
            Cell cell = nsCell(v);
            cell.sign = v < 0 ? -1 : v > 0 ? 1 : 0;
            row.push_back(std::move(cell));
        }
        Cell total = nsCell(cfg.attributionTotalNs);
        total.bold = true;
        row.push_back(std::move(total));
        t.rows.push_back(std::move(row));
    }
    if (t.rows.empty()) {
        s.blocks.push_back(Paragraph{"One configuration only: nothing to attribute."});
        return s;
    }
    s.blocks.push_back(Figure{"Change of the mean step by category vs the previous configuration (ms); the "
                              "black tick is the total",
                              chart});
    s.blocks.push_back(std::move(t));
    return s;
}

} // namespace cnp::report::detail
