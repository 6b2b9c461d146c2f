#include "report/ChartPainter.h"

#include "core/InputError.h"
#include "core/Interrupt.h"
#include "report/AxisScale.h"
#include "report/CairoText.h"

#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>

namespace cnp::report {

namespace {

const TextStyle kAxis{7, false, false, false, "#444444"};
const TextStyle kLabel{7.5, false, false, false, "#222222"};
const TextStyle kAnnotation{7.5, true, false, false, "#222222"};
const TextStyle kMutedAnnotation{7.5, true, true, false, "#999999"};
constexpr const char* kGrid = "#dddddd";
constexpr const char* kAxisLine = "#444444";
constexpr const char* kGain = "#59a14f";
constexpr const char* kLoss = "#e15759";

void line(cairo_t* cr, double x1, double y1, double x2, double y2, const char* color, double w = 0.6) {
    setColor(cr, color);
    cairo_set_line_width(cr, w);
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x2, y2);
    cairo_stroke(cr);
}

void rect(cairo_t* cr, double x, double y, double w, double h, const std::string& color, double alpha = 1) {
    setColor(cr, color, alpha);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
}

// Text vertically centred on y.
void textAt(cairo_t* cr, const std::string& s, double x, double y, const TextStyle& st, HAlign a,
            double width = -1, Elide e = Elide::None) {
    const double h = measureText(cr, s, st).height;
    drawText(cr, s, x, y - h / 2, st, a, width, e);
}

// The divisor for axis labels: a unit scale that is not finite and > 0 counts as 1.
double validUnitScale(double s) {
    return std::isfinite(s) && s > 0 ? s : 1;
}

// A y axis from 0 to axisMax with grid lines and tick labels, and the unit as a rotated title.
struct YAxis {
    double top, height, axisMax;
    double y(double v) const { return top + height * (1.0 - v / axisMax); }
};

YAxis drawYAxis(cairo_t* cr, double maxValue, double left, double right, double top, double height,
                const std::string& unit) {
    const AxisScale scale = axisScale(0, std::max(0.0, maxValue * 1.1), 5);
    const YAxis ax{top, height, scale.last()};
    for (int i = 0; i < scale.ticks; ++i) {
        const double t = scale.at(i);
        line(cr, left, ax.y(t), right, ax.y(t), kGrid);
        textAt(cr, tickLabel(t), left - 4, ax.y(t), kAxis, HAlign::Right);
    }
    cairo_save(cr);
    cairo_translate(cr, 8, top + height / 2);
    cairo_rotate(cr, -M_PI / 2);
    textAt(cr, unit, 0, 0, kAxis, HAlign::Center);
    cairo_restore(cr);
    return ax;
}

// An annotation above a bar: its lines ('\n' between them) each centred on cx, the last ending at bottom.
void annotationAbove(cairo_t* cr, const std::string& text, double cx, double bottom, const TextStyle& st) {
    std::vector<std::string> lines;
    for (std::size_t from = 0;;) {
        const std::size_t nl = text.find('\n', from);
        lines.push_back(text.substr(from, nl == std::string::npos ? std::string::npos : nl - from));
        if (nl == std::string::npos)
            break;
        from = nl + 1;
    }
    const double lineHeight = measureText(cr, "Ag", st).height;
    double y = bottom - lineHeight * static_cast<double>(lines.size());
    for (const auto& l : lines) {
        drawText(cr, l, cx, y, st, HAlign::Center);
        y += lineHeight;
    }
}

constexpr double kBarHeight = 220, kBarLeft = 52, kBarRight = 8, kBarTop = 18, kBarBottom = 40;
constexpr int kLabelLines = 3; // what fits in kBarBottom below the axis

// A category label under its bar, centred on cx with its top at y, within `width`: one line when it fits,
// else broken before a '+' or after a space (configuration names are chains such as
// "AC2+ACCL+CompilerOpt") onto at most kLabelLines lines, each filled greedily; only the last line, or a
// piece without a break that fits, is elided at its end. O(label length x pieces) measurements.
void categoryLabel(cairo_t* cr, const std::string& label, double cx, double y, double width) {
    std::vector<std::string> pieces;
    std::size_t from = 0;
    for (std::size_t i = 1; i <= label.size(); ++i)
        if (i == label.size() || label[i] == '+' || label[i - 1] == ' ') {
            pieces.push_back(label.substr(from, i - from));
            from = i;
        }
    const double lineHeight = measureText(cr, "Ag", kLabel).height;
    std::size_t next = 0;
    for (int line = 0; line < kLabelLines && next < pieces.size(); ++line) {
        std::string text = pieces[next++];
        const bool last = line + 1 == kLabelLines;
        while (next < pieces.size() && (last || !isElided(cr, text + pieces[next], kLabel, width)))
            text += pieces[next++];
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        drawText(cr, text, cx, y + line * lineHeight, kLabel, HAlign::Center, width, Elide::End);
    }
}

void drawBars(cairo_t* cr, const BarChart& c, double width) {
    const double plotW = width - kBarLeft - kBarRight, plotH = kBarHeight - kBarTop - kBarBottom;
    double maxV = 0;
    for (const auto& b : c.bars)
        maxV = std::max({maxV, b.value, b.errHi});
    const auto ax = drawYAxis(cr, maxV, kBarLeft, width - kBarRight, kBarTop, plotH, c.unit);
    const double slot = c.bars.empty() ? plotW : plotW / static_cast<double>(c.bars.size());
    const double barW = std::min(60.0, slot * 0.6);
    for (std::size_t i = 0; i < c.bars.size(); ++i) {
        const auto& b = c.bars[i];
        const double cx = kBarLeft + slot * (static_cast<double>(i) + 0.5);
        rect(cr, cx - barW / 2, ax.y(b.value), barW, ax.y(0) - ax.y(b.value), b.color);
        if (b.errHi > b.errLo) {
            line(cr, cx, ax.y(b.errLo), cx, ax.y(b.errHi), "#222222", 1);
            for (double e : {b.errLo, b.errHi})
                line(cr, cx - 5, ax.y(e), cx + 5, ax.y(e), "#222222", 1);
        }
        if (!b.annotation.empty())
            annotationAbove(cr, b.annotation, cx, ax.y(std::max(b.value, b.errHi)) - 2.5,
                            b.muted ? kMutedAnnotation : kAnnotation);
        categoryLabel(cr, b.label, cx, kBarTop + plotH + 4, slot - 4);
    }
    line(cr, kBarLeft, ax.y(0), width - kBarRight, ax.y(0), kAxisLine);
}

constexpr double kStackLeft = 120, kStackRight = 10, kStackTop = 6, kStackRow = 20, kStackBar = 13,
                 kStackAxis = 26, kLegendRow = 12;

// Legend entries flowed into lines of at most `width`; returns the number of lines (draws when cr).
int legend(cairo_t* cr, const std::vector<StackPart>& parts, double left, double top, double width) {
    double x = left;
    int lines = parts.empty() ? 0 : 1;
    for (const auto& p : parts) {
        const double w = 14 + measureText(cr, p.label, kLabel).width + 12;
        if (x + w > left + width && x > left) {
            x = left;
            ++lines;
        }
        const double y = top + (lines - 1) * kLegendRow;
        rect(cr, x, y + 2, 8, 8, p.color);
        textAt(cr, p.label, x + 11, y + 6, kLabel, HAlign::Left);
        x += w;
    }
    return lines;
}

// Every part label that occurs, in first-seen order (bars may have different categories).
std::vector<StackPart> legendParts(const StackedChart& c) {
    std::vector<StackPart> parts;
    for (const auto& b : c.bars)
        for (const auto& p : b.parts)
            if (std::none_of(parts.begin(), parts.end(),
                             [&](const StackPart& q) { return q.label == p.label; }))
                parts.push_back(p);
    return parts;
}

double stackedHeight(cairo_t* cr, const StackedChart& c, double width) {
    cairo_save(cr);
    cairo_push_group(cr); // measure the legend without drawing it
    const int lines = legend(cr, legendParts(c), kStackLeft, 0, width - kStackLeft - kStackRight);
    cairo_pattern_destroy(cairo_pop_group(cr));
    cairo_restore(cr);
    return kStackTop + kStackRow * static_cast<double>(c.bars.size()) + kStackAxis + lines * kLegendRow + 4;
}

void drawStacked(cairo_t* cr, const StackedChart& c, double width) {
    const double plotW = width - kStackLeft - kStackRight;
    double maxSum = 0;
    for (const auto& b : c.bars) {
        double sum = 0;
        for (const auto& p : b.parts)
            sum += std::max(0.0, p.value);
        maxSum = std::max(maxSum, sum);
    }
    const double unitScale = validUnitScale(c.unitScale);
    const AxisScale scale = axisScale(0, maxSum / unitScale, 6); // in label units
    const double axisMax = scale.last() * unitScale;
    auto x = [&](double v) { return kStackLeft + plotW * v / axisMax; };
    const double axisY = kStackTop + kStackRow * static_cast<double>(c.bars.size());
    for (int i = 0; i < scale.ticks; ++i) {
        const double t = scale.at(i) * unitScale;
        line(cr, x(t), kStackTop, x(t), axisY, kGrid);
        drawText(cr, tickLabel(scale.at(i)), x(t), axisY + 2, kAxis, HAlign::Center);
    }
    drawText(cr, c.unit, kStackLeft + plotW / 2, axisY + 12, kAxis, HAlign::Center);
    for (std::size_t i = 0; i < c.bars.size(); ++i) {
        const double yTop = kStackTop + kStackRow * static_cast<double>(i) + (kStackRow - kStackBar) / 2;
        textAt(cr, c.bars[i].label, kStackLeft - 6, yTop + kStackBar / 2, kLabel, HAlign::Right,
               kStackLeft - 10, Elide::End);
        double acc = 0;
        for (const auto& p : c.bars[i].parts) {
            if (p.value <= 0)
                continue;
            rect(cr, x(acc), yTop, x(acc + p.value) - x(acc), kStackBar, p.color);
            acc += p.value;
        }
    }
    legend(cr, legendParts(c), kStackLeft, axisY + kStackAxis, plotW);
}

std::string signedTick(double v) {
    return (v > 0 ? "+" : v < 0 ? "−" : "") + tickLabel(std::fabs(v));
}

void drawWaterfall(cairo_t* cr, const WaterfallChart& c, double width) {
    const double plotW = width - kBarLeft - kBarRight, plotH = kBarHeight - kBarTop - kBarBottom;
    double run = c.start, maxV = c.start;
    for (const auto& s : c.steps)
        maxV = std::max(maxV, run += s.delta);
    const double end = run;
    const auto ax = drawYAxis(cr, maxV, kBarLeft, width - kBarRight, kBarTop, plotH, c.unit);
    const std::size_t n = c.steps.size() + 2;
    const double slot = plotW / static_cast<double>(n), barW = std::min(50.0, slot * 0.6);
    auto cx = [&](std::size_t i) { return kBarLeft + slot * (static_cast<double>(i) + 0.5); };
    auto column = [&](std::size_t i, double from, double to, const std::string& color, double alpha,
                      const std::string& annotation, const std::string& label, bool muted) {
        const double lo = std::min(from, to), hi = std::max(from, to);
        rect(cr, cx(i) - barW / 2, ax.y(hi), barW, std::max(0.5, ax.y(lo) - ax.y(hi)), color, alpha);
        textAt(cr, annotation, cx(i), ax.y(hi) - 7, muted ? kMutedAnnotation : kAnnotation, HAlign::Center);
        categoryLabel(cr, label, cx(i), kBarTop + plotH + 4, slot - 4);
    };
    column(0, 0, c.start, c.startColor, 1, tickLabel(c.start), c.startLabel, false);
    run = c.start;
    for (std::size_t i = 0; i < c.steps.size(); ++i) {
        const auto& s = c.steps[i];
        // Dashed connector from the previous bar's level to this one.
        cairo_save(cr);
        const double dash[] = {2, 2};
        cairo_set_dash(cr, dash, 2, 0);
        line(cr, cx(i) + barW / 2, ax.y(run), cx(i + 1) - barW / 2, ax.y(run), "#888888", 0.5);
        cairo_restore(cr);
        column(i + 1, run, run + s.delta, s.delta >= 0 ? kGain : kLoss, s.significant ? 1 : 0.35,
               signedTick(s.delta), s.label, !s.significant);
        run += s.delta;
    }
    column(n - 1, 0, end, c.endColor, 1, tickLabel(end), c.endLabel, false);
    line(cr, kBarLeft, ax.y(0), width - kBarRight, ax.y(0), kAxisLine);
}

// The legend of a diverging chart: every part label, in first-seen order.
std::vector<StackPart> legendParts(const DivergingChart& c) {
    StackedChart s;
    for (const auto& r : c.rows)
        s.bars.push_back({r.label, r.parts});
    return legendParts(s);
}

double divergingHeight(cairo_t* cr, const DivergingChart& c, double width) {
    cairo_save(cr);
    cairo_push_group(cr);
    const int lines = legend(cr, legendParts(c), kStackLeft, 0, width - kStackLeft - kStackRight);
    cairo_pattern_destroy(cairo_pop_group(cr));
    cairo_restore(cr);
    return kStackTop + kStackRow * static_cast<double>(c.rows.size()) + kStackAxis + lines * kLegendRow + 4;
}

void drawDiverging(cairo_t* cr, const DivergingChart& c, double width) {
    const double plotW = width - kStackLeft - kStackRight;
    double neg = 0, pos = 0; // the widest stacks on either side
    for (const auto& r : c.rows) {
        double n = 0, p = 0;
        for (const auto& part : r.parts)
            (part.value < 0 ? n : p) += part.value;
        neg = std::min({neg, n, r.total});
        pos = std::max({pos, p, r.total});
    }
    const double unitScale = validUnitScale(c.unitScale);
    const AxisScale scale = axisScale(neg / unitScale, pos / unitScale, 6); // in label units
    const double lo = scale.first * unitScale, hi = scale.last() * unitScale;
    auto x = [&](double v) { return kStackLeft + plotW * (v - lo) / (hi - lo); };
    const double axisY = kStackTop + kStackRow * static_cast<double>(c.rows.size());
    for (int i = 0; i < scale.ticks; ++i) {
        const double label = scale.at(i), t = label * unitScale;
        const bool zero = std::fabs(label) < scale.step / 2;
        line(cr, x(t), kStackTop, x(t), axisY, zero ? kAxisLine : kGrid);
        drawText(cr, tickLabel(zero ? 0 : label), x(t), axisY + 2, kAxis, HAlign::Center);
    }
    drawText(cr, c.unit, kStackLeft + plotW / 2, axisY + 12, kAxis, HAlign::Center);
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        const auto& r = c.rows[i];
        const double yTop = kStackTop + kStackRow * static_cast<double>(i) + (kStackRow - kStackBar) / 2;
        textAt(cr, r.label, kStackLeft - 6, yTop + kStackBar / 2, kLabel, HAlign::Right, kStackLeft - 10,
               Elide::End);
        double n = 0, p = 0;
        for (const auto& part : r.parts) {
            double& acc = part.value < 0 ? n : p;
            const double a = x(acc), b = x(acc + part.value);
            rect(cr, std::min(a, b), yTop, std::fabs(b - a), kStackBar, part.color);
            acc += part.value;
        }
        line(cr, x(r.total), yTop - 2, x(r.total), yTop + kStackBar + 2, "#000000", 1.6);
    }
    legend(cr, legendParts(c), kStackLeft, axisY + kStackAxis, plotW);
}

constexpr double kHeatLeft = 40, kHeatRight = 10, kHeatTop = 6, kHeatLegend = 40;

double heatCell(const HeatmapChart& c) {
    return std::clamp(150.0 / std::max<double>(1, static_cast<double>(c.rowLabels.size())), 4.0, 14.0);
}

// Light (low) to dark (high) blue, linear in RGB.
void heatColor(cairo_t* cr, double f) {
    const double lo[] = {0.91, 0.95, 0.98}, hi[] = {0.03, 0.19, 0.42};
    cairo_set_source_rgb(cr, lo[0] + (hi[0] - lo[0]) * f, lo[1] + (hi[1] - lo[1]) * f,
                         lo[2] + (hi[2] - lo[2]) * f);
}

void drawHeatmap(cairo_t* cr, const HeatmapChart& c, double width) {
    const double cellH = heatCell(c), plotW = width - kHeatLeft - kHeatRight;
    const double cellW = plotW / static_cast<double>(std::max<std::size_t>(1, c.columns));
    double lo = 0, hi = 0;
    bool any = false;
    for (double v : c.values)
        if (v >= 0) {
            lo = any ? std::min(lo, v) : v;
            hi = any ? std::max(hi, v) : v;
            any = true;
        }
    const std::size_t rows = c.rowLabels.size();
    const std::size_t rowEvery = cellH >= 7 ? 1 : static_cast<std::size_t>(std::ceil(7 / cellH));
    for (std::size_t r = 0; r < rows; ++r) {
        const double y = kHeatTop + cellH * static_cast<double>(r);
        if (r % rowEvery == 0)
            textAt(cr, c.rowLabels[r], kHeatLeft - 4, y + cellH / 2, kAxis, HAlign::Right);
        for (std::size_t col = 0; col < c.columns; ++col) {
            const double v = c.values[r * c.columns + col];
            if (v < 0)
                continue;
            heatColor(cr, hi > lo ? (v - lo) / (hi - lo) : 0.5);
            cairo_rectangle(cr, kHeatLeft + cellW * static_cast<double>(col), y, cellW + 0.05, cellH + 0.05);
            cairo_fill(cr);
        }
    }
    const double bottom = kHeatTop + cellH * static_cast<double>(rows);
    const std::size_t colEvery = static_cast<std::size_t>(std::max(1.0, std::ceil(24 / cellW)));
    for (std::size_t col = 0; col < c.columns; col += colEvery)
        drawText(cr, std::to_string(col + 1), kHeatLeft + cellW * (static_cast<double>(col) + 0.5),
                 bottom + 2, kAxis, HAlign::Center);
    drawText(cr, c.columnTitle, kHeatLeft + plotW / 2, bottom + 12, kAxis, HAlign::Center);
    cairo_save(cr);
    cairo_translate(cr, 8, kHeatTop + cellH * static_cast<double>(rows) / 2);
    cairo_rotate(cr, -M_PI / 2);
    textAt(cr, c.rowTitle, 0, 0, kAxis, HAlign::Center);
    cairo_restore(cr);
    // Colour scale: 120 pt gradient with the extreme values at its ends.
    const double ly = bottom + 26, lw = 120;
    cairo_pattern_t* g = cairo_pattern_create_linear(kHeatLeft, 0, kHeatLeft + lw, 0);
    cairo_pattern_add_color_stop_rgb(g, 0, 0.91, 0.95, 0.98);
    cairo_pattern_add_color_stop_rgb(g, 1, 0.03, 0.19, 0.42);
    cairo_set_source(cr, g);
    cairo_rectangle(cr, kHeatLeft, ly, lw, 7);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", lo / c.unitScale);
    textAt(cr, buf, kHeatLeft - 4, ly + 3.5, kAxis, HAlign::Right);
    std::snprintf(buf, sizeof buf, "%.2f %s", hi / c.unitScale, c.unit.c_str());
    textAt(cr, buf, kHeatLeft + lw + 4, ly + 3.5, kAxis, HAlign::Left);
}

cairo_status_t appendToString(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

// Prefixes every id cairo's SVG defines and every reference to one (href="#x", url(#x)).
std::string prefixIds(const std::string& svg, const std::string& prefix) {
    static const std::regex ref(R"((id="|href="#|url\(#))");
    return std::regex_replace(svg, ref, "$1" + prefix);
}

} // namespace

double chartHeight(const Chart& chart, double width) {
    if (const auto* s = std::get_if<StackedChart>(&chart)) {
        cairo_surface_t* surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nullptr);
        cairo_t* cr = cairo_create(surface);
        const double h = stackedHeight(cr, *s, width);
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
        return h;
    }
    if (const auto* d = std::get_if<DivergingChart>(&chart)) {
        cairo_surface_t* surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nullptr);
        cairo_t* cr = cairo_create(surface);
        const double h = divergingHeight(cr, *d, width);
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
        return h;
    }
    if (const auto* h = std::get_if<HeatmapChart>(&chart))
        return kHeatTop + heatCell(*h) * static_cast<double>(h->rowLabels.size()) + kHeatLegend;
    return kBarHeight;
}

void drawChart(cairo_t* cr, const Chart& chart, double width) {
    if (interruptRequested())
        throw Cancelled();
    cairo_save(cr);
    std::visit(
        [&](const auto& c) {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, BarChart>)
                drawBars(cr, c, width);
            else if constexpr (std::is_same_v<T, StackedChart>)
                drawStacked(cr, c, width);
            else if constexpr (std::is_same_v<T, WaterfallChart>)
                drawWaterfall(cr, c, width);
            else if constexpr (std::is_same_v<T, DivergingChart>)
                drawDiverging(cr, c, width);
            else
                drawHeatmap(cr, c, width);
        },
        chart);
    cairo_restore(cr);
}

std::string chartSvg(const Chart& chart, double width, const std::string& idPrefix) {
    if (interruptRequested()) // before any cairo object exists: nothing to release
        throw Cancelled();
    std::string svg;
    const double height = chartHeight(chart, width);
    cairo_surface_t* surface = cairo_svg_surface_create_for_stream(appendToString, &svg, width, height);
    cairo_t* cr = cairo_create(surface);
    drawChart(cr, chart, width);
    cairo_destroy(cr);
    cairo_surface_finish(surface);
    cairo_surface_destroy(surface);
    const auto start = svg.find("<svg");
    return prefixIds(start == std::string::npos ? svg : svg.substr(start), idPrefix);
}

} // namespace cnp::report
