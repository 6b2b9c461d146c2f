#include "report/HtmlReport.h"

#include "core/InputError.h"
#include "core/Units.h"
#include "metrics/RunSummaryReader.h"
#include "report/Palette.h"
#include "report/SvgChart.h"

#include <chrono>
#include <ctime>
#include <filesystem>

namespace cnp {

using report::htmlEscape;

namespace {

constexpr const char* kStyle = R"CSS(
body{font-family:sans-serif;max-width:1000px;margin:24px auto;color:#222;line-height:1.4}
h1{font-size:24px;margin-bottom:4px} h2{font-size:19px;margin-top:32px;border-bottom:1px solid #ccc}
h3{font-size:15px;margin-top:20px} .meta{color:#666;font-size:13px}
table{border-collapse:collapse;font-size:13px;margin:8px 0} th,td{border:1px solid #ccc;padding:3px 8px}
th{background:#f2f2f2;text-align:left} td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td:first-child{white-space:nowrap}
td.k{max-width:520px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-family:monospace;font-size:12px}
.ns{color:#999;font-style:italic} .pos{color:#2e7d32} .neg{color:#c62828}
.swatch{display:inline-block;width:10px;height:10px;margin-right:6px;vertical-align:baseline}
)CSS";

std::string ms(Ns ns) {
    return units::durationIn(static_cast<double>(ns), 1e6, 2);
}

std::string ratioCell(const RatioWithCi& r) {
    std::string s =
        units::ratio(r.value) + " [" + units::ratio(r.ci95.lo) + ", " + units::ratio(r.ci95.hi) + "]";
    return r.significant ? s : "<span class=\"ns\">" + s + " not significant</span>";
}

// Throughput CI bounds follow from the step-time CI: throughput is inversely proportional to step time.
std::pair<double, double> throughputBounds(const AblationConfig& c) {
    if (c.medianStepNs <= 0 || c.ciLoNs <= 0 || c.ciHiNs <= 0)
        return {c.throughput, c.throughput};
    const double perNs = c.throughput * static_cast<double>(c.medianStepNs);
    return {perNs / static_cast<double>(c.ciHiNs), perNs / static_cast<double>(c.ciLoNs)};
}

void writeRuns(const Workspace& ws, std::ostream& o) {
    o << "<h2>Runs</h2>\n<table><tr><th>Run</th><th>Configuration</th><th>Format</th><th>Ranks</th><th>GPU</"
         "th>"
         "<th>Kernels</th><th>Skipped events</th></tr>\n";
    for (const auto& r : ws.runs())
        o << "<tr><td>" << htmlEscape(r.info.name) << (r.info.synthetic ? " <i>(synthetic)</i>" : "")
          << "</td><td>" << htmlEscape(r.info.config) << "</td><td>" << htmlEscape(r.info.sourceFormat)
          << "</td><td class=\"n\">" << r.rankCount << "</td><td>"
          << htmlEscape(r.info.gpuModels.empty() ? "-" : r.info.gpuModels.front()) << "</td><td class=\"n\">"
          << units::count(r.kernelCount) << "</td><td class=\"n\">" << units::count(r.info.skipped.count)
          << "</td></tr>\n";
    o << "</table>\n";
}

void writeAblation(const AblationResult& a, const std::vector<std::string>& plan, std::ostream& o) {
    auto colorOf = [&](const std::string& config) {
        const auto it = std::find(plan.begin(), plan.end(), config);
        return palette::configurationColor(static_cast<int>(it - plan.begin()));
    };
    const std::string unit = a.configs.empty() ? "steps/s" : a.configs.front().throughputUnit;
    o << "<h2>Ablation</h2>\n<p>Throughput per configuration in plan order (median over all steps of all "
         "runs), "
         "with the 95% bootstrap confidence interval as error bars and the speedup over the baseline <b>"
      << htmlEscape(a.baseline) << "</b> above each bar.</p>\n";
    std::vector<report::Bar> bars;
    for (const auto& c : a.configs) {
        const auto [lo, hi] = throughputBounds(c);
        report::Bar b;
        b.label = c.config;
        b.value = c.throughput;
        b.errLo = lo;
        b.errHi = hi;
        b.color = colorOf(c.config);
        b.annotation = units::ratio(c.speedupVsBaseline.value) +
                       (c.speedupVsBaseline.significant || c.config == a.baseline ? "" : " (n.s.)");
        b.tooltip =
            c.config + ": " + units::rate(c.throughput, unit) + ", median step " + ms(c.medianStepNs) + " ms";
        bars.push_back(b);
    }
    o << report::svgBarChart(bars, unit);
    o << "<table><tr><th>Configuration</th><th>Runs</th><th>Steps</th><th>Median step (ms)</th><th>95% CI "
         "(ms)</th>"
         "<th>Throughput</th><th>MFU</th><th>Speedup vs baseline [95% CI]</th><th>Gain vs previous [95% "
         "CI]</th></tr>\n";
    for (const auto& c : a.configs) {
        o << "<tr><td><span class=\"swatch\" style=\"background:" << colorOf(c.config) << "\"></span>"
          << htmlEscape(c.config) << "</td><td class=\"n\">" << c.runs.size() << "</td><td class=\"n\">"
          << c.stepTimesNs.size() << "</td><td class=\"n\">" << ms(c.medianStepNs) << "</td><td class=\"n\">"
          << ms(c.ciLoNs) << " – " << ms(c.ciHiNs) << "</td><td class=\"n\">"
          << units::rate(c.throughput, c.throughputUnit) << "</td><td class=\"n\">"
          << (c.mfu ? units::percent(*c.mfu) : "–") << "</td><td>"
          << (c.config == a.baseline ? std::string("baseline") : ratioCell(c.speedupVsBaseline))
          << "</td><td>" << (c.gainVsPrevious ? ratioCell(*c.gainVsPrevious) : std::string("–"))
          << "</td></tr>\n";
    }
    o << "</table>\n";
}

void writeBreakdown(const AblationResult& a, std::ostream& o) {
    o << "<h2>Where the time went</h2>\n<p>Mean step window per configuration split into exact parts "
         "(compute, exposed communication, exposed memory copies, idle; docs/metrics.md). Overlap is "
         "communication hidden under compute and is not part of the sum.</p>\n";
    std::vector<report::StackedBar> bars;
    for (const auto& c : a.configs) {
        const auto& b = c.breakdownMeanNs;
        bars.push_back({c.config,
                        {{"compute", static_cast<double>(b.compute), palette::categoryColor("compute")},
                         {"exposed communication", static_cast<double>(b.communication),
                          palette::categoryColor("communication")},
                         {"exposed memory", static_cast<double>(b.memory), palette::categoryColor("memory")},
                         {"idle", static_cast<double>(b.idle), palette::categoryColor("idle")}}});
    }
    o << report::svgStackedBars(bars, "ms per step (mean)", 1e6);
    o << "<table><tr><th>Configuration</th><th>Mean step (ms)</th><th>Compute</th><th>Exposed comm.</th>"
         "<th>Overlap</th><th>Exposed memory</th><th>Idle</th></tr>\n";
    for (const auto& c : a.configs) {
        const auto& b = c.breakdownMeanNs;
        o << "<tr><td>" << htmlEscape(c.config) << "</td><td class=\"n\">" << ms(c.meanStepNs)
          << "</td><td class=\"n\">" << ms(b.compute) << "</td><td class=\"n\">" << ms(b.communication)
          << "</td><td class=\"n\">" << ms(b.overlap) << "</td><td class=\"n\">" << ms(b.memory)
          << "</td><td class=\"n\">" << ms(b.idle) << "</td></tr>\n";
    }
    o << "</table>\n";
}

void writeAttribution(const AblationResult& a, std::ostream& o) {
    o << "<h2>What each step bought</h2>\n<p>Change of the mean step time against the previous "
         "configuration, "
         "attributed to kernel categories and idle time (exclusive time; the parts sum exactly to the "
         "total). "
         "Negative is faster.</p>\n<table><tr><th>Configuration</th>";
    for (const auto& cat : a.categories)
        o << "<th><span class=\"swatch\" style=\"background:" << palette::categoryColor(cat) << "\"></span>"
          << htmlEscape(cat) << "</th>";
    o << "<th>Total (ms)</th></tr>\n";
    for (const auto& c : a.configs) {
        if (!c.attributionVsPreviousNs)
            continue;
        o << "<tr><td>" << htmlEscape(c.config) << "</td>";
        for (const auto& cat : a.categories) {
            Ns v = 0;
            for (const auto& [name, ns] : *c.attributionVsPreviousNs)
                if (name == cat)
                    v = ns;
            o << "<td class=\"n " << (v < 0 ? "pos" : v > 0 ? "neg" : "") << "\">" << ms(v) << "</td>";
        }
        o << "<td class=\"n\"><b>" << ms(c.attributionTotalNs) << "</b></td></tr>\n";
    }
    o << "</table>\n";
}

void writeKernels(const Workspace& ws, std::size_t limit, std::ostream& o) {
    o << "<h2>Top kernels</h2>\n";
    for (const auto& r : ws.runs()) {
        const RunSummaryReader reader(ws, r.id);
        const auto rows = reader.kernelStats(-1, limit);
        o << "<h3>" << htmlEscape(r.info.name) << " (" << htmlEscape(r.info.config) << ")</h3>\n"
          << "<table><tr><th>Kernel</th><th>Category</th><th>Count</th><th>Total</th><th>Mean</"
             "th><th>Median</th>"
             "<th>% of kernel time</th></tr>\n";
        for (const auto& k : rows) {
            o << "<tr><td class=\"k\" title=\"" << htmlEscape(k.name) << "\">" << htmlEscape(k.name)
              << "</td><td>" << htmlEscape(k.category) << "</td><td class=\"n\">" << units::count(k.count)
              << "</td><td class=\"n\">" << units::duration(static_cast<double>(k.totalNs))
              << "</td><td class=\"n\">" << units::duration(k.meanNs) << "</td><td class=\"n\">"
              << units::duration(k.medianNs) << "</td><td class=\"n\">" << units::percent(k.percent / 100.0)
              << "</td></tr>\n";
        }
        o << "</table>\n";
    }
}

} // namespace

void writeHtmlReport(const Workspace& ws, std::ostream& o, const ReportOptions& opt) {
    if (ws.runs().empty())
        throw InputError(ws.path(), "the workspace has no runs to report on");
    const auto ablation = computeAblation(ws, opt.ablation);
    o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << htmlEscape(opt.title)
      << "</title>\n<style>" << kStyle << "</style></head><body>\n<h1>" << htmlEscape(opt.title) << "</h1>\n"
      << "<div class=\"meta\">Workspace " << htmlEscape(std::filesystem::path(ws.path()).filename().string());
    if (opt.includeTimestamp) {
        const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
        std::tm tm{};
        gmtime_r(&t, &tm);
        char buf[40];
        std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
        o << " · generated " << buf;
    }
    o << " · baseline " << htmlEscape(ablation.baseline) << "</div>\n";
    writeRuns(ws, o);
    writeAblation(ablation, ws.planOrder(), o);
    writeBreakdown(ablation, o);
    writeAttribution(ablation, o);
    writeKernels(ws, opt.topKernels, o);
    o << "</body></html>\n";
}

} // namespace cnp
