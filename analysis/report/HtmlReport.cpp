#include "report/HtmlReport.h"

#include "core/InputError.h"
#include "core/Units.h"
#include "metrics/RunSummaryReader.h"
#include "report/Palette.h"
#include "report/SvgChart.h"

#include <algorithm>

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

using report::ms;

std::string ratioCell(const RatioWithCi& r) {
    const std::string s = report::ratioText(r);
    return r.significant ? s
                         : "<span class=\"ns\">" + s + (r.hasCi ? report::kNotSignificant : "") + "</span>";
}

// "<table><tr><th>H1</th>...</tr>\n"
std::string tableHead(const std::vector<std::string>& headers) {
    std::string s = "<table><tr>";
    for (const auto& h : headers)
        s += "<th>" + htmlEscape(h) + "</th>";
    return s + "</tr>\n";
}

void writeRuns(const Workspace& ws, std::ostream& o) {
    o << "<h2>Runs</h2>\n" << tableHead(report::runsHeaders());
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
    auto colorOf = [&](const std::string& config) { return report::configurationColor(config, plan); };
    const std::string unit = a.configs.empty() ? "steps/s" : a.configs.front().throughputUnit;
    o << "<h2>Ablation</h2>\n<p>" << htmlEscape(report::kAblationIntro) << " <b>" << htmlEscape(a.baseline)
      << "</b>" << report::kAblationIntroEnd << "</p>\n";
    o << report::svgBarChart(report::ablationBars(a, plan), unit);
    o << tableHead(report::ablationHeaders());
    for (const auto& c : a.configs) {
        o << "<tr><td><span class=\"swatch\" style=\"background:" << colorOf(c.config) << "\"></span>"
          << htmlEscape(c.config) << "</td><td class=\"n\">" << c.runs.size() << "</td><td class=\"n\">"
          << c.stepTimesNs.size() << "</td><td class=\"n\">" << ms(c.medianStepNs) << "</td><td class=\"n\">"
          << report::ciText(c) << "</td><td class=\"n\">" << units::rate(c.throughput, c.throughputUnit)
          << "</td><td class=\"n\">" << (c.mfu ? units::percent(*c.mfu) : "–") << "</td><td>"
          << (c.config == a.baseline ? std::string("baseline") : ratioCell(c.speedupVsBaseline))
          << "</td><td>" << (c.gainVsPrevious ? ratioCell(*c.gainVsPrevious) : std::string("–"))
          << "</td></tr>\n";
    }
    o << "</table>\n";
    if (!a.notInPlan.empty()) {
        o << "<p>Not in the plan (not compared):";
        for (const auto& c : a.notInPlan)
            o << " " << htmlEscape(c);
        o << "</p>\n";
    }
    if (!a.warnings.empty()) {
        o << "<ul class=\"warnings\">\n";
        for (const auto& w : a.warnings)
            o << "<li>" << htmlEscape(w.message) << "</li>\n";
        o << "</ul>\n";
    }
}

void writeBreakdown(const AblationResult& a, std::ostream& o) {
    o << "<h2>Where the time went</h2>\n<p>" << htmlEscape(report::kBreakdownIntro) << "</p>\n";
    o << report::svgStackedBars(report::breakdownBars(a), "ms per step (mean)", 1e6);
    o << tableHead(report::breakdownHeaders());
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
    o << "<h2>What each step bought</h2>\n<p>" << htmlEscape(report::kAttributionIntro)
      << "</p>\n<table><tr><th>Configuration</th>";
    for (const auto& cat : a.categories)
        o << "<th><span class=\"swatch\" style=\"background:" << palette::categoryColor(cat) << "\"></span>"
          << htmlEscape(cat) << "</th>";
    o << "<th>Total (ms)</th></tr>\n";
    for (const auto& c : a.configs) {
        if (!c.attributionVsPreviousNs)
            continue;
        o << "<tr><td>" << htmlEscape(c.config) << "</td>";
        for (const auto& cat : a.categories) {
            const Ns v = report::attributionOf(c, cat);
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
          << tableHead(report::kernelHeaders());
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
      << "<div class=\"meta\">" << htmlEscape(report::metaLine(ws, opt, ablation.baseline)) << "</div>\n";
    writeRuns(ws, o);
    writeAblation(ablation, ws.planOrder(), o);
    writeBreakdown(ablation, o);
    writeAttribution(ablation, o);
    writeKernels(ws, opt.topKernels, o);
    o << "</body></html>\n";
}

} // namespace cnp
