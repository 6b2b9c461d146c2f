#include "report/HtmlReport.h"

#include "core/InputError.h"
#include "core/Interrupt.h"
#include "core/TerminalText.h"
#include "history/TrendReport.h"
#include "report/ChartPainter.h"

#include <cmath>

namespace cnp {

namespace report {

std::string htmlEscape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return terminalSafe(out); // control characters of names neutralised (issue 33.7)
}

} // namespace report

namespace {

using report::htmlEscape;

// Chart width in points: the PDF's text width on A4, so both formats draw the same chart.
constexpr double kChartWidth = 495;

constexpr const char* kStyle = R"CSS(
body{font-family:"DejaVu Sans","Noto Sans CJK SC",sans-serif;font-size:14px;max-width:1000px;margin:24px auto;padding:0 16px;color:#222;line-height:1.4}
h1{font-size:24px;margin-bottom:4px} h2{font-size:19px;margin-top:36px;border-bottom:1px solid #ccc}
h3{font-size:15px;margin-top:20px} .meta{color:#666;font-size:13px}
nav{font-size:13px;margin:12px 0} nav a{margin-right:12px;color:#4e79a7}
table{border-collapse:collapse;font-size:13px;margin:8px 0} th,td{border:1px solid #ccc;padding:3px 8px;vertical-align:top}
th{background:#f2f2f2;text-align:left} td:first-child{white-space:nowrap} td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.k{max-width:460px;word-break:break-all;font-family:"DejaVu Sans Mono",monospace;font-size:12px}
.ns{color:#999;font-style:italic} .pos{color:#2e7d32} .neg{color:#c62828}
.swatch{display:inline-block;width:10px;height:10px;margin-right:6px;vertical-align:baseline}
figure{margin:12px 0} figure svg{width:100%;max-width:800px;height:auto} figcaption{font-size:12px;color:#555}
.note{border-left:4px solid #a0a0a0;padding:4px 10px;margin:8px 0;background:#fafafa}
.note.warning{border-color:#f28e2b} .note.critical{border-color:#e15759}
.note p{margin:4px 0} .note ul{margin:4px 0;font-size:12px;color:#444}
)CSS";

std::string cellHtml(const report::Column& col, const report::Cell& c) {
    std::string cls = col.kind == report::ColumnKind::Number   ? "n"
                      : col.kind == report::ColumnKind::Kernel ? "k"
                                                               : "";
    auto add = [&cls](const char* name) { cls += (cls.empty() ? "" : " ") + std::string(name); };
    if (c.muted)
        add("ns");
    if (c.sign != 0)
        add(c.sign < 0 ? "pos" : "neg");
    std::string s = "<td" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">";
    if (!c.swatch.empty())
        s += "<span class=\"swatch\" style=\"background:" + htmlEscape(c.swatch) + "\"></span>";
    const std::string text = htmlEscape(c.text);
    return s + (c.bold ? "<b>" + text + "</b>" : text) + "</td>";
}

void writeTable(const report::Table& t, std::ostream& o) {
    o << "<table id=\"t-" << htmlEscape(t.id) << "\"><thead><tr>";
    for (const auto& col : t.columns)
        o << "<th>" << htmlEscape(col.title) << "</th>";
    o << "</tr></thead><tbody>\n";
    for (const auto& row : t.rows) {
        o << "<tr>";
        for (std::size_t i = 0; i < row.size() && i < t.columns.size(); ++i)
            o << cellHtml(t.columns[i], row[i]);
        o << "</tr>\n";
    }
    o << "</tbody></table>\n";
}

void writeNotes(const report::NoteList& l, std::ostream& o) {
    for (const auto& n : l.notes) {
        o << "<div class=\"note " << toString(n.severity) << "\"><b>" << report::severityLabel(n.severity)
          << ":</b> " << htmlEscape(n.title);
        if (!n.explanation.empty())
            o << "<p>" << htmlEscape(n.explanation) << "</p>";
        if (!n.evidence.empty()) {
            o << "<ul>";
            for (const auto& e : n.evidence)
                o << "<li>" << htmlEscape(e) << "</li>";
            o << "</ul>";
        }
        o << "</div>\n";
    }
}

void writeBlock(const report::Block& b, int& figureNo, std::ostream& o) {
    if (const auto* h = std::get_if<report::Heading>(&b))
        o << "<h3>" << htmlEscape(h->text) << "</h3>\n";
    else if (const auto* p = std::get_if<report::Paragraph>(&b))
        o << "<p>" << htmlEscape(p->text) << "</p>\n";
    else if (const auto* f = std::get_if<report::Figure>(&b)) {
        ++figureNo;
        o << "<figure>" << report::chartSvg(f->chart, kChartWidth, "f" + std::to_string(figureNo) + "-")
          << "<figcaption>Figure " << figureNo << ". " << htmlEscape(f->caption)
          << "</figcaption></figure>\n";
    } else if (const auto* t = std::get_if<report::Table>(&b))
        writeTable(*t, o);
    else if (const auto* l = std::get_if<report::NoteList>(&b))
        writeNotes(*l, o);
}

} // namespace

void writeHtmlReport(const report::ReportModel& m, std::ostream& o) {
    o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << htmlEscape(m.title)
      << "</title>\n<style>" << kStyle << "</style></head><body>\n<h1>" << htmlEscape(m.title) << "</h1>\n"
      << "<div class=\"meta\">" << htmlEscape(m.metaLine()) << "</div>\n<nav>";
    for (const auto& s : m.sections)
        o << "<a href=\"#" << report::sectionId(s.id) << "\">" << htmlEscape(s.title) << "</a>";
    if (m.trend)
        o << "<a href=\"#release-trend\">Release trend</a>";
    o << "</nav>\n";
    int figureNo = 0;
    for (const auto& s : m.sections) {
        o << "<section id=\"" << report::sectionId(s.id) << "\">\n<h2>" << htmlEscape(s.title) << "</h2>\n";
        for (const auto& b : s.blocks) {
            if (interruptRequested())
                throw Cancelled();
            writeBlock(b, figureNo, o);
        }
        o << "</section>\n";
    }
    if (m.trend) // the trend report's own body: the same tables and charts as `cnp history show --html`
        o << "<section id=\"release-trend\">\n<h2>Release trend</h2>\n<p>"
          << htmlEscape("Release history " + m.trend->folder) << "</p>\n"
          << trendSectionHtml(m.trend->releases, m.trend->series, 3) << "</section>\n";
    o << "</body></html>\n";
}

void writeHtmlReport(const Workspace& ws, std::ostream& out, const ReportOptions& options) {
    writeHtmlReport(report::buildReportModel(ws, options), out);
}

} // namespace cnp
