#include "report/SvgChart.h"

#include "report/ReportContent.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace cnp::report {

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
    return out;
}

namespace {

std::string num(double v, int decimals = 1) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace

std::string svgBarChart(const std::vector<Bar>& bars, const std::string& unit, int width, int height) {
    const int left = 70, right = 20, top = 30, bottom = 60;
    const double plotW = width - left - right, plotH = height - top - bottom;
    double maxV = 0;
    for (const auto& b : bars)
        maxV = std::max({maxV, b.value, b.errHi});
    const double step = niceStep(maxV * 1.1, 5);
    const double axisMax = std::max(step, std::ceil(maxV * 1.1 / step) * step);
    auto y = [&](double v) { return top + plotH * (1.0 - v / axisMax); };
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    for (double t = 0; t <= axisMax + step / 2; t += step) {
        s << "<line x1=\"" << left << "\" x2=\"" << width - right << "\" y1=\"" << num(y(t)) << "\" y2=\""
          << num(y(t)) << "\" stroke=\"#ddd\"/>";
        s << "<text x=\"" << left - 6 << "\" y=\"" << num(y(t) + 4) << "\" text-anchor=\"end\" fill=\"#444\">"
          << tickLabel(t) << "</text>\n";
    }
    s << "<text x=\"14\" y=\"" << num(top + plotH / 2) << "\" transform=\"rotate(-90 14 "
      << num(top + plotH / 2) << ")\" text-anchor=\"middle\" fill=\"#444\">" << htmlEscape(unit)
      << "</text>\n";
    const double slot = bars.empty() ? plotW : plotW / static_cast<double>(bars.size());
    const double barW = std::min(90.0, slot * 0.6);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto& b = bars[i];
        const double cx = left + slot * (static_cast<double>(i) + 0.5);
        s << "<g><title>" << htmlEscape(b.tooltip.empty() ? b.label : b.tooltip) << "</title>";
        s << "<rect x=\"" << num(cx - barW / 2) << "\" y=\"" << num(y(b.value)) << "\" width=\"" << num(barW)
          << "\" height=\"" << num(top + plotH - y(b.value)) << "\" fill=\"" << b.color << "\"/>";
        if (b.errHi > b.errLo) {
            s << "<line x1=\"" << num(cx) << "\" x2=\"" << num(cx) << "\" y1=\"" << num(y(b.errLo))
              << "\" y2=\"" << num(y(b.errHi)) << "\" stroke=\"#222\" stroke-width=\"1.5\"/>";
            for (double e : {b.errLo, b.errHi})
                s << "<line x1=\"" << num(cx - 8) << "\" x2=\"" << num(cx + 8) << "\" y1=\"" << num(y(e))
                  << "\" y2=\"" << num(y(e)) << "\" stroke=\"#222\" stroke-width=\"1.5\"/>";
        }
        if (!b.annotation.empty())
            s << "<text x=\"" << num(cx) << "\" y=\"" << num(y(std::max(b.value, b.errHi)) - 6)
              << "\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"#222\">" << htmlEscape(b.annotation)
              << "</text>";
        s << "<text x=\"" << num(cx) << "\" y=\"" << num(top + plotH + 18)
          << "\" text-anchor=\"middle\" fill=\"#222\">" << htmlEscape(b.label) << "</text></g>\n";
    }
    s << "<line x1=\"" << left << "\" x2=\"" << width - right << "\" y1=\"" << num(top + plotH) << "\" y2=\""
      << num(top + plotH) << "\" stroke=\"#444\"/>\n</svg>\n";
    return s.str();
}

std::string svgStackedBars(const std::vector<StackedBar>& bars, const std::string& unit, double unitScale,
                           int width) {
    const int left = 170, right = 20, top = 10, rowH = 34, barH = 22, legendH = 56;
    const int height = top + rowH * static_cast<int>(bars.size()) + 30 + legendH;
    const double plotW = width - left - right;
    double maxSum = 0;
    for (const auto& b : bars) {
        double sum = 0;
        for (const auto& p : b.parts)
            sum += p.value;
        maxSum = std::max(maxSum, sum);
    }
    const double step = niceStep(maxSum / unitScale, 5) * unitScale;
    const double axisMax = std::max(step, std::ceil(maxSum / step) * step);
    auto x = [&](double v) { return left + plotW * v / axisMax; };
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    const int axisY = top + rowH * static_cast<int>(bars.size());
    for (double t = 0; t <= axisMax + step / 2; t += step) {
        s << "<line x1=\"" << num(x(t)) << "\" x2=\"" << num(x(t)) << "\" y1=\"" << top << "\" y2=\"" << axisY
          << "\" stroke=\"#ddd\"/><text x=\"" << num(x(t)) << "\" y=\"" << axisY + 16
          << "\" text-anchor=\"middle\" fill=\"#444\">" << tickLabel(t / unitScale) << "</text>\n";
    }
    s << "<text x=\"" << num(left + plotW / 2) << "\" y=\"" << axisY + 30
      << "\" text-anchor=\"middle\" fill=\"#444\">" << htmlEscape(unit) << "</text>\n";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const int yTop = top + rowH * static_cast<int>(i) + (rowH - barH) / 2;
        s << "<text x=\"" << left - 8 << "\" y=\"" << yTop + barH / 2 + 4
          << "\" text-anchor=\"end\" fill=\"#222\">" << htmlEscape(bars[i].label) << "</text>";
        double acc = 0;
        for (const auto& p : bars[i].parts) {
            if (p.value <= 0)
                continue;
            s << "<rect x=\"" << num(x(acc)) << "\" y=\"" << yTop << "\" width=\""
              << num(x(acc + p.value) - x(acc)) << "\" height=\"" << barH << "\" fill=\"" << p.color
              << "\"><title>" << htmlEscape(bars[i].label) << " — " << htmlEscape(p.label) << ": "
              << num(p.value / unitScale, 3) << ' ' << htmlEscape(unit) << "</title></rect>";
            acc += p.value;
        }
        s << '\n';
    }
    // Legend: the parts of the first bar, in order.
    double lx = left;
    const int ly = axisY + 58;
    if (!bars.empty())
        for (const auto& p : bars.front().parts) {
            s << "<rect x=\"" << num(lx) << "\" y=\"" << ly - 10 << "\" width=\"12\" height=\"12\" fill=\""
              << p.color << "\"/><text x=\"" << num(lx + 16) << "\" y=\"" << ly << "\" fill=\"#222\">"
              << htmlEscape(p.label) << "</text>";
            lx += 24 + 7.0 * static_cast<double>(p.label.size());
        }
    s << "\n</svg>\n";
    return s.str();
}

} // namespace cnp::report
