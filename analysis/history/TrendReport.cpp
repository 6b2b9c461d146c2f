#include "history/TrendReport.h"

#include "core/Units.h"
#include "history/JUnitReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace cnp {
namespace {

constexpr double kWidth = 720, kHeight = 240;
constexpr double kLeft = 90, kRight = 20, kTop = 20, kBottom = 50;

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

std::string valueText(const TrendSeries& s, double v) {
    if (s.metric == "step_time")
        return units::duration(v);
    if (s.metric == "throughput")
        return units::rate(v, s.unit);
    return units::percent(v);
}

// The y range of the present points' CIs, padded by 5 % (a flat series gets +-1 % of its value).
std::pair<double, double> yRange(const TrendSeries& s) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& p : s.points)
        if (p.present && std::isfinite(p.lo) && std::isfinite(p.hi)) {
            lo = std::min(lo, std::min(p.lo, p.value));
            hi = std::max(hi, std::max(p.hi, p.value));
        }
    if (!(lo <= hi))
        return {0, 1};
    if (hi - lo <= std::abs(hi) * 1e-9) {
        const double pad = std::max(std::abs(hi) * 0.01, 1e-12);
        return {lo - pad, hi + pad};
    }
    const double pad = (hi - lo) * 0.05;
    return {lo - pad, hi + pad};
}

void chart(std::ostringstream& h, const TrendSeries& s) {
    const std::size_t n = s.points.size();
    const auto range = yRange(s);
    const double y0 = range.first, y1 = range.second;
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    auto x = [&](std::size_t i) {
        return kLeft + (n <= 1 ? plotW / 2 : plotW * static_cast<double>(i) / static_cast<double>(n - 1));
    };
    auto y = [&](double v) { return kTop + plotH * (1 - (v - y0) / (y1 - y0)); };
    h << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" role=\"img\" class=\"trend\">\n";
    h << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plotW << "\" height=\"" << plotH
      << "\" fill=\"none\" stroke=\"#bbb\"/>\n";
    for (int t = 0; t <= 4; ++t) { // 5 horizontal ticks
        const double v = y0 + (y1 - y0) * t / 4.0;
        h << "<text x=\"" << kLeft - 6 << "\" y=\"" << num(y(v) + 4)
          << "\" text-anchor=\"end\" font-size=\"11\">" << xmlEscape(valueText(s, v)) << "</text>\n";
    }
    const std::size_t labelEvery = std::max<std::size_t>(1, (n + 11) / 12);
    for (std::size_t i = 0; i < n; ++i)
        if (i % labelEvery == 0 || i + 1 == n)
            h << "<text x=\"" << num(x(i)) << "\" y=\"" << kHeight - kBottom + 16
              << "\" text-anchor=\"middle\" font-size=\"11\">" << xmlEscape(s.points[i].release)
              << "</text>\n";
    std::string line;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& p = s.points[i];
        if (!p.present)
            continue;
        line += num(x(i)) + "," + num(y(p.value)) + " ";
        h << "<line class=\"ci\" x1=\"" << num(x(i)) << "\" x2=\"" << num(x(i)) << "\" y1=\"" << num(y(p.lo))
          << "\" y2=\"" << num(y(p.hi)) << "\" stroke=\"#555\"/>\n";
        h << "<circle cx=\"" << num(x(i)) << "\" cy=\"" << num(y(p.value))
          << "\" r=\"3.5\" fill=\"#1f77b4\"><title>"
          << xmlEscape(p.release + ": " + valueText(s, p.value) + " [" + valueText(s, p.lo) + ", " +
                       valueText(s, p.hi) + "]")
          << "</title></circle>\n";
    }
    h << "<polyline points=\"" << line << "\" fill=\"none\" stroke=\"#1f77b4\"/>\n";
    for (const auto& c : s.changes) {
        const double cx = c.index == 0 ? x(0) : (x(c.index - 1) + x(c.index)) / 2;
        const double ratio = c.meanBefore != 0 ? c.meanAfter / c.meanBefore : 0;
        h << "<line class=\"change-point\" x1=\"" << num(cx) << "\" x2=\"" << num(cx) << "\" y1=\"" << kTop
          << "\" y2=\"" << kTop + plotH << "\" stroke=\"#d62728\" stroke-dasharray=\"5,3\"/>\n";
        h << "<text x=\"" << num(cx + 4) << "\" y=\"" << kTop + 12 << "\" font-size=\"11\" fill=\"#d62728\">"
          << xmlEscape("change " + units::ratio(ratio) + " (p = " + units::fixed(c.pValue, 3) + ")")
          << "</text>\n";
    }
    h << "</svg>\n";
}

} // namespace

std::string trendSectionHtml(const std::vector<HistoryEntry>& releases,
                             const std::vector<TrendSeries>& series, int headingLevel) {
    const std::string h2 = "h" + std::to_string(std::clamp(headingLevel, 1, 6));
    std::ostringstream h;
    h << "<table><tr><th>release</th><th>date</th><th>commit</th>"
      << "<th>driver</th><th>CUDA</th><th>NCCL</th><th>image</th></tr>\n";
    for (const auto& e : releases)
        h << "<tr><td>" << xmlEscape(e.release) << "</td><td>" << xmlEscape(e.date) << "</td><td>"
          << xmlEscape(e.commit) << "</td><td>" << xmlEscape(e.driver) << "</td><td>" << xmlEscape(e.cuda)
          << "</td><td>" << xmlEscape(e.nccl) << "</td><td>" << xmlEscape(e.image) << "</td></tr>\n";
    h << "</table>\n<p>Median per release with its 95% CI (whiskers); dashed red lines: change points "
         "(E-divisive means, p &lt;= 0.05).</p>\n";
    for (const auto& s : series) {
        if (std::none_of(s.points.begin(), s.points.end(), [](const TrendPoint& p) { return p.present; }))
            continue;
        h << "<" << h2 << ">" << xmlEscape(s.config) << " &#8212; " << xmlEscape(s.metric) << "</" << h2
          << ">\n";
        chart(h, s);
    }
    return h.str();
}

std::string trendReportHtml(const std::vector<HistoryEntry>& releases, const std::vector<TrendSeries>& series,
                            const std::string& title) {
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << xmlEscape(title) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:2px "
         "8px;text-align:left}h2{margin-top:1.5em}</style></head><body>\n";
    h << "<h1>" << xmlEscape(title) << "</h1>\n" << trendSectionHtml(releases, series, 2);
    h << "</body></html>\n";
    return h.str();
}

} // namespace cnp
