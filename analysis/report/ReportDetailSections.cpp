// The detail behind the headline numbers: ranks of multi-rank runs, kernels per configuration and their
// changes, insights with evidence, and how every number was obtained.
#include "core/Units.h"
#include "metrics/MultiRankSteps.h"
#include "metrics/PooledKernelDiff.h"
#include "report/Palette.h"
#include "report/ReportSections.h"
#include "requests/PooledKernelsRequest.h"
#include "requests/WorkspaceCategories.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace cnp::report::detail {

namespace {

// Heatmaps show at most this many steps (the first ones): a page has room for about that many columns.
constexpr std::size_t kMaxHeatmapSteps = 120;

struct RankRow {
    std::int32_t rank = 0;
    std::size_t steps = 0, slowestIn = 0;
    Ns window = 0, compute = 0, communication = 0, idle = 0; // sums over the rank's steps
};

// Per-rank sums over the steps every rank has (the multi-rank steps), and how often each rank defined
// the step time.
std::vector<RankRow> rankRows(const std::vector<StepSummary>& steps,
                              const std::vector<MultiRankStep>& multi) {
    std::map<std::int32_t, RankRow> rows;
    std::map<std::int32_t, bool> counted;
    for (const auto& m : multi)
        counted[m.index] = true;
    for (const auto& st : steps) {
        if (!st.hasGpu() || !counted.count(st.index))
            continue;
        auto& r = rows[st.rank];
        r.rank = st.rank;
        ++r.steps;
        r.window += st.length();
        r.compute += st.breakdown.compute;
        r.communication += st.breakdown.communication;
        r.idle += st.breakdown.idle;
    }
    for (const auto& m : multi)
        ++rows[m.slowestRank].slowestIn;
    std::vector<RankRow> out;
    out.reserve(rows.size());
    for (auto& [rank, r] : rows)
        out.push_back(r);
    return out;
}

Cell meanCell(Ns sum, std::size_t n) {
    return nsCell(n == 0 ? 0
                         : static_cast<Ns>(std::llround(static_cast<double>(sum) / static_cast<double>(n))));
}

Table rankTable(const RunRecord& run, const std::vector<RankRow>& rows) {
    Table t{
        "ranks-" + run.info.name,
        {numberColumn("Rank", {"rank"}), numberColumn("Steps", {"steps"}),
         numberColumn("Mean window (ms)", {"mean_window_ns"}), numberColumn("Compute", {"mean_compute_ns"}),
         numberColumn("Exposed comm.", {"mean_exposed_communication_ns"}),
         numberColumn("Idle", {"mean_idle_ns"}), numberColumn("Slowest in (steps)", {"slowest_in_steps"})},
        {}};
    for (const auto& r : rows)
        t.rows.push_back({numberCell(std::to_string(r.rank), {static_cast<double>(r.rank)}),
                          numberCell(std::to_string(r.steps), {static_cast<double>(r.steps)}),
                          meanCell(r.window, r.steps), meanCell(r.compute, r.steps),
                          meanCell(r.communication, r.steps), meanCell(r.idle, r.steps),
                          numberCell(std::to_string(r.slowestIn), {static_cast<double>(r.slowestIn)})});
    return t;
}

// Rank x step matrix of step-window lengths (ns), the first kMaxHeatmapSteps multi-rank steps.
HeatmapChart rankHeatmap(const std::vector<StepSummary>& steps, const std::vector<MultiRankStep>& multi,
                         const std::vector<RankRow>& rows) {
    HeatmapChart h{"ms", 1e6, "rank", "step", {}, std::min(multi.size(), kMaxHeatmapSteps), {}};
    std::map<std::int32_t, std::size_t> rowOf, columnOf;
    for (const auto& r : rows) {
        rowOf[r.rank] = h.rowLabels.size();
        h.rowLabels.push_back(std::to_string(r.rank));
    }
    for (std::size_t i = 0; i < h.columns; ++i)
        columnOf[multi[i].index] = i;
    h.values.assign(h.rowLabels.size() * h.columns, -1);
    for (const auto& st : steps) {
        const auto col = columnOf.find(st.index);
        if (st.hasGpu() && col != columnOf.end() && rowOf.count(st.rank))
            h.values[rowOf[st.rank] * h.columns + col->second] = static_cast<double>(st.length());
    }
    return h;
}

} // namespace

Section ranksSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Ranks);
    s.blocks.push_back(Paragraph{
        "Per-rank step windows of every multi-rank run. A multi-rank step lasts as long as its slowest "
        "rank; \"slowest in\" counts the steps each rank defined. The heatmap shows each rank's window per "
        "step: a row darker than the others is a straggler."});
    bool any = false;
    for (const auto& run : c.runs) {
        if (run.rankCount < 2)
            continue;
        const RunSummaryReader reader = summaryReaderOf(c.ws, run.id);
        const auto steps = reader.steps();
        const auto multi = aggregateSteps(steps);
        if (multi.empty())
            continue;
        any = true;
        const auto rows = rankRows(steps, multi);
        s.blocks.push_back(Heading{run.info.name + " (" + run.info.config + ", " +
                                   std::to_string(run.rankCount) + " ranks)"});
        s.blocks.push_back(Figure{"Step window per rank and step (ms), " + run.info.name +
                                      (multi.size() > kMaxHeatmapSteps
                                           ? ", first " + std::to_string(kMaxHeatmapSteps) + " steps"
                                           : std::string()),
                                  rankHeatmap(steps, multi, rows)});
        s.blocks.push_back(rankTable(run, rows));
    }
    if (!any)
        s.blocks.push_back(Paragraph{"No multi-rank run in the reported configurations."});
    return s;
}

namespace {

// Calls per GPU-step: an integer as a count, otherwise two decimals ("2.50" -> "2.5").
std::string callsText(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9.0e15)
        return units::count(static_cast<std::int64_t>(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string t = buf;
    while (t.back() == '0')
        t.pop_back();
    if (t.back() == '.')
        t.pop_back();
    return t;
}

std::vector<RunId> runIdsOf(const StudyContext& c, const std::string& config) {
    std::vector<RunId> ids;
    for (const auto* r : c.runsOf.at(config))
        ids.push_back(r->id);
    return ids;
}

// "2 runs (base-r1, base-r2), 16 GPU-steps"
std::string poolText(const StudyContext& c, const std::string& config, const PooledKernels& p) {
    std::string names;
    for (const auto* r : c.runsOf.at(config))
        names += (names.empty() ? "" : ", ") + r->info.name;
    return std::to_string(p.runs) + (p.runs == 1 ? " run (" : " runs (") + names + "), " +
           units::count(p.gpuSteps) + (p.gpuSteps == 1 ? " GPU-step" : " GPU-steps");
}

Table topKernelTable(const std::string& config, const PooledKernels& p, std::size_t limit) {
    Table t{"kernels-" + config,
            {{"Kernel", ColumnKind::Kernel, {"kernel"}},
             textColumn("Category", "category"),
             numberColumn("Calls", {"count"}),
             numberColumn("Total", {"total_ns"}),
             numberColumn("Per call", {"mean_ns"}),
             numberColumn("Per GPU-step", {"per_step_ns"}),
             numberColumn("% of kernel time", {"percent"})},
            {}};
    for (std::size_t i = 0; i < p.rows.size() && (limit == 0 || i < limit); ++i) {
        const auto& k = p.rows[i];
        t.rows.push_back(
            {textCell(k.name), textCell(k.category, palette::categoryColor(k.category)),
             numberCell(units::count(k.count), {static_cast<double>(k.count)}),
             numberCell(units::duration(static_cast<double>(k.totalNs)), {static_cast<double>(k.totalNs)}),
             numberCell(units::duration(k.perCallNs), {k.perCallNs}),
             numberCell(units::duration(k.perStepNs), {k.perStepNs}),
             numberCell(units::percent(k.percent / 100.0), {k.percent})});
    }
    return t;
}

} // namespace

Section kernelsSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Kernels);
    s.blocks.push_back(Paragraph{
        "The " + std::to_string(c.options.topKernels) +
        " kernels with the most GPU time in each configuration, pooled over all of its runs (repeats) and "
        "ranks. Per GPU-step = the kernel's total time / the GPU-steps of those runs (each rank's steps, "
        "summed over ranks and runs): the time one GPU spends in it per step (docs/metrics.md, \"Kernels "
        "of a configuration\")."});
    for (const auto& cfg : c.order) {
        const auto pooled = poolKernels(c.ws, runIdsOf(c, cfg));
        s.blocks.push_back(Heading{cfg + ": " + poolText(c, cfg, pooled)});
        s.blocks.push_back(topKernelTable(cfg, pooled, c.options.topKernels));
    }
    return s;
}

namespace {

std::string signedDuration(double ns) {
    return (ns > 0 ? "+" : ns < 0 ? "−" : "") + units::duration(std::fabs(ns));
}

Table kernelChangeTable(const std::string& id, const PooledKernelDiff& d, std::size_t limit) {
    Table t{id,
            {{"Kernel", ColumnKind::Kernel, {"kernel"}},
             textColumn("Category", "category"),
             textColumn("Change", "change"),
             numberColumn("Calls per GPU-step", {"calls_per_step_before", "calls_per_step_after"}),
             numberColumn("Per GPU-step before", {"per_step_before_ns"}),
             numberColumn("Per GPU-step after", {"per_step_after_ns"}),
             numberColumn("Δ per GPU-step", {"delta_per_step_ns"})},
            {}};
    for (std::size_t i = 0; i < d.kernels.size() && i < limit; ++i) {
        const auto& k = d.kernels[i];
        const double delta = k.delta();
        Cell dc = numberCell(signedDuration(delta), {delta});
        dc.sign = delta < 0 ? -1 : delta > 0 ? 1 : 0;
        t.rows.push_back({textCell(k.name), textCell(k.category, palette::categoryColor(k.category)),
                          textCell(k.cls),
                          numberCell(callsText(k.callsPerStepA) + " → " + callsText(k.callsPerStepB),
                                     {k.callsPerStepA, k.callsPerStepB}),
                          numberCell(units::duration(k.perStepA), {k.perStepA}),
                          numberCell(units::duration(k.perStepB), {k.perStepB}), std::move(dc)});
    }
    return t;
}

} // namespace

Section kernelChangesSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::KernelChanges);
    s.blocks.push_back(Paragraph{
        "Kernels whose GPU time per GPU-step changed most between consecutive configurations, each "
        "configuration pooled over all of its runs and ranks (kernels matched by exact name; classes as in "
        "docs/metrics.md, \"Run diff\", applied to the per-step values). Negative is faster."});
    if (c.order.size() < 2)
        s.blocks.push_back(Paragraph{"One configuration only: nothing to compare."});
    std::vector<PooledKernels> pooled;
    for (const auto& cfg : c.order)
        pooled.push_back(poolKernels(c.ws, runIdsOf(c, cfg)));
    for (std::size_t i = 1; i < c.order.size(); ++i) {
        const auto d = diffPooledKernels(pooled[i - 1], pooled[i]);
        s.blocks.push_back(Heading{c.order[i - 1] + " → " + c.order[i] + ": " + std::to_string(d.faster) +
                                   " faster, " + std::to_string(d.slower) + " slower, " +
                                   std::to_string(d.added) + " added, " + std::to_string(d.removed) +
                                   " removed"});
        s.blocks.push_back(
            kernelChangeTable("kernel-changes-" + std::to_string(i), d, c.options.topKernelChanges));
    }
    return s;
}

namespace {

std::string evidenceLine(const InsightEvidence& e) {
    std::string where;
    if (e.rank >= 0)
        where += "rank " + std::to_string(e.rank);
    if (e.stepIndex >= 0)
        where += (where.empty() ? "" : ", ") + std::string("step ") + std::to_string(e.stepIndex);
    if (e.start >= 0 && e.end >= e.start)
        where += (where.empty() ? "" : ", ") + units::duration(static_cast<double>(e.end - e.start)) +
                 " at " + ms(e.start) + " ms";
    std::string s = where.empty() ? e.detail : where + (e.detail.empty() ? "" : ": " + e.detail);
    for (const auto& k : e.kernels)
        s += (s.empty() ? "" : "; ") + k;
    return s;
}

} // namespace

Section insightsSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Insights);
    s.blocks.push_back(Paragraph{
        "Findings per run, most severe first, each with its evidence (docs/metrics.md, \"Insights\"). The "
        "release-note checks are in the Environment section."});
    for (const auto& run : c.runs) {
        NoteList list;
        for (const auto& in : computeInsights(c.ws, run.info.name)) {
            if (in.id.rfind("release-notes.", 0) == 0)
                continue;
            Note n{in.severity, in.title, in.explanation, {}};
            for (const auto& e : in.evidence)
                n.evidence.push_back(evidenceLine(e));
            list.notes.push_back(std::move(n));
        }
        s.blocks.push_back(Heading{run.info.name + " (" + run.info.config + ")"});
        if (list.notes.empty())
            s.blocks.push_back(Paragraph{"No findings."});
        else
            s.blocks.push_back(std::move(list));
    }
    return s;
}

Section methodologySection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Methodology);
    const auto& o = c.options.ablation;
    auto p = [&](std::string text) { s.blocks.push_back(Paragraph{std::move(text)}); };
    p("Step time: the GPU window of a step, from the first GPU activity launched by the step's CPU range "
      "to the first GPU activity of the next step (docs/metrics.md, \"Steps and windows\"). A multi-rank "
      "step lasts as long as its slowest rank: every rank's steps are used, and the slowest rank's "
      "breakdown stands for the step.");
    p("Steps used: every step with GPU work of every run of a configuration" +
      (o.skipFirstSteps > 0
           ? ", minus the first " + std::to_string(o.skipFirstSteps) + " of each run (warm-up)"
           : std::string(" (no warm-up steps dropped)")) +
      ". Runs without step markers count as one step, their whole trace.");
    p("Throughput = tokens per step / median step time when tokens per step is known, else steps per second. "
      "Confidence intervals are 95% percentile bootstrap intervals over steps (" +
      std::to_string(o.resamples) + " resamples, fixed seed " + std::to_string(o.seed) +
      ", identical on every machine).");
    p("Significant: a speedup or gain is significant only when its 95% CI excludes 1. Non-significant ratios "
      "are greyed and marked \"n.s.\"; the report never calls them gains.");
    p("Breakdown: compute + exposed communication + exposed memory + idle = the step window exactly; "
      "exclusive time gives each instant to the highest-priority active category. The attribution "
      "differences these per-step means (the mean, not the median: a median has no additive decomposition), "
      "so its parts sum exactly to the change of the mean step.");
    p("Kernels and their changes pool every run (repeat) and rank of a configuration: calls and time are "
      "summed, and divided by the GPU-steps of those runs (each rank's steps with GPU work, summed over "
      "ranks and runs; a rank without steps counts one) to give the time per GPU-step, which compares "
      "configurations with different repeat, step or rank counts. Kernels outside the step windows count "
      "too. Kernels are matched between configurations by exact name.");
    std::vector<std::string> synthetic;
    for (const auto& r : c.runs)
        if (r.info.synthetic)
            synthetic.push_back(r.info.name);
    if (synthetic.empty()) {
        p("Data: every run is a measurement (no synthetic run).");
    } else {
        std::string names;
        for (const auto& n : synthetic)
            names += (names.empty() ? "" : ", ") + n;
        NoteList l;
        l.notes.push_back({InsightSeverity::Warning,
                           "Synthetic data: " + names,
                           "These runs were generated, not measured. Their numbers show what the analysis "
                           "computes; they say nothing about real hardware.",
                           {}});
        s.blocks.push_back(std::move(l));
    }
    return s;
}

} // namespace cnp::report::detail
