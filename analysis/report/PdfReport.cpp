#include "report/PdfReport.h"

#include "core/InputError.h"
#include "core/Units.h"
#include "metrics/RunSummaryReader.h"
#include "report/Palette.h"
#include "report/PdfWriter.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cnp {

namespace {

using pdf::Font;
using pdf::PdfWriter;
using pdf::Rgb;

// Page geometry and type sizes, in points.
constexpr double kMargin = 42;
constexpr double kTop = 46;
constexpr double kBottom = PdfWriter::kPageHeight - 52; // content never goes below this line
constexpr double kContentW = PdfWriter::kPageWidth - 2 * kMargin;
constexpr double kBody = 8.5, kLeading = 11.5;
constexpr double kCell = 7.5, kRowH = 13, kPad = 4, kSwatch = 7;

const Rgb kText = Rgb::fromHex("#222222");
const Rgb kMuted = Rgb::fromHex("#666666");
const Rgb kNotSig = Rgb::fromHex("#999999");
const Rgb kGrid = Rgb::fromHex("#cccccc");
const Rgb kGridLight = Rgb::fromHex("#e0e0e0");
const Rgb kHeaderFill = Rgb::fromHex("#f2f2f2");
const Rgb kFaster = Rgb::fromHex("#2e7d32");
const Rgb kSlower = Rgb::fromHex("#c62828");

struct Cell {
    Cell(std::string t, Rgb c = kText, bool b = false, std::string sw = {})
        : text(std::move(t)), color(c), bold(b), swatch(std::move(sw)) {}
    std::string text;
    Rgb color;
    bool bold;
    std::string swatch; // "#rrggbb": a small colour square before the text
};

struct Table {
    std::vector<std::string> headers;
    std::vector<std::string> headerSwatches; // empty or one per header ("" = none): a colour band on top
    std::vector<bool> numeric;               // right-aligned columns
    std::vector<std::vector<Cell>> rows;
    int flexColumn = 0; // the column that gives up width (text truncated with "…") when the table is too wide
};

struct TableGeometry;

// A top-to-bottom flow of blocks over as many pages as needed; y is the top of the free space.
class Layout {
public:
    explicit Layout(PdfWriter& w) : w_(w) { newPage(); }

    void newPage() {
        w_.beginPage();
        y_ = kTop;
    }
    // Starts a new page unless `height` more points fit on this one.
    void need(double height) {
        if (y_ + height > kBottom && y_ > kTop)
            newPage();
    }

    void title(const std::string& text) {
        y_ += 18;
        w_.text(kMargin, y_, pdf::fitText(text, Font::HelveticaBold, 18, kContentW), Font::HelveticaBold, 18,
                kText);
        y_ += 6;
    }
    void meta(const std::string& text) {
        y_ += 11;
        w_.text(kMargin, y_, pdf::fitText(text, Font::Helvetica, 8.5, kContentW), Font::Helvetica, 8.5,
                kMuted);
        y_ += 4;
    }
    // Section heading with a rule under it, kept together with at least `keep` points of what follows.
    void heading(const std::string& text, double keep = 90) {
        need(40 + keep);
        y_ += 24;
        w_.text(kMargin, y_, text, Font::HelveticaBold, 13, kText);
        y_ += 4;
        w_.line(kMargin, y_, kMargin + kContentW, y_, 0.6, kGrid);
        y_ += 4;
    }
    void subheading(const std::string& text, double keep = 3 * kRowH) {
        need(22 + keep);
        y_ += 16;
        w_.text(kMargin, y_, pdf::fitText(text, Font::HelveticaBold, 10, kContentW), Font::HelveticaBold, 10,
                kText);
        y_ += 3;
    }
    void paragraph(const std::string& text) {
        const auto lines = pdf::wrapText(text, Font::Helvetica, kBody, kContentW);
        y_ += 4;
        for (const auto& l : lines) {
            need(kLeading);
            y_ += kLeading;
            w_.text(kMargin, y_, l, Font::Helvetica, kBody, kText);
        }
        y_ += 4;
    }
    void gap(double h) { y_ += h; }

    void table(const Table& t);
    static double tableHeight(const Table& t);
    static constexpr double kBarChartHeight = 210;
    static double stackedBarsHeight(std::size_t bars) { return 6 + 22 * static_cast<double>(bars) + 28 + 18; }
    void barChart(const std::vector<report::Bar>& bars, const std::string& unit);
    void stackedBars(const std::vector<report::StackedBar>& bars, const std::string& unit, double unitScale);

private:
    void tableHeader(const Table& t, const TableGeometry& g);

    PdfWriter& w_;
    double y_ = kTop;
};

double cellWidth(const Cell& c, double size) {
    return pdf::textWidth(c.text, c.bold ? Font::HelveticaBold : Font::Helvetica, size) +
           (c.swatch.empty() ? 0 : kSwatch + 3) + 2 * kPad;
}

double widestWord(const std::string& s, double size) {
    double best = 0;
    for (const auto& word : pdf::wrapText(s, Font::HelveticaBold, size, 0))
        best = std::max(best, pdf::textWidth(word, Font::HelveticaBold, size));
    return best;
}

// How a table is set: its font size, column widths and header height (points).
struct TableGeometry {
    double size = kCell;
    std::vector<double> widths;
    double headerH = 0;
    double total() const { return std::accumulate(widths.begin(), widths.end(), 0.0); }
};

// Column widths at one font size: the natural width of every column (content and one-line header); when
// the table is too wide, headers wrap (widest first, down to their content or longest word). `excess`
// receives how much wider than the page the result still is (<= 0 when it fits).
std::vector<double> columnWidths(const Table& t, double size, double& excess) {
    const std::size_t n = t.headers.size();
    std::vector<double> content(n, 2 * kPad), header(n), headerMin(n), w(n);
    for (const auto& row : t.rows)
        for (std::size_t i = 0; i < n && i < row.size(); ++i)
            content[i] = std::max(content[i], cellWidth(row[i], size));
    for (std::size_t i = 0; i < n; ++i) {
        header[i] = pdf::textWidth(t.headers[i], Font::HelveticaBold, size) + 2 * kPad;
        headerMin[i] = widestWord(t.headers[i], size) + 2 * kPad;
        w[i] = std::max(content[i], header[i]);
    }
    auto total = [&] { return std::accumulate(w.begin(), w.end(), 0.0); };
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return header[a] - content[a] > header[b] - content[b]; });
    for (std::size_t i : order) {
        const double over = total() - kContentW;
        if (over <= 0)
            break;
        w[i] = std::max(std::max(content[i], headerMin[i]), w[i] - over);
    }
    excess = total() - kContentW;
    return w;
}

double headerHeight(const Table& t, const std::vector<double>& widths, double size) {
    std::size_t lines = 1;
    for (std::size_t i = 0; i < t.headers.size(); ++i)
        lines = std::max(lines,
                         pdf::wrapText(t.headers[i], Font::HelveticaBold, size, widths[i] - 2 * kPad).size());
    return 4 + (size + 1) * static_cast<double>(lines) + 1;
}

// Too wide at the normal size: the flex column gives up width down to a third of the page (or its
// natural width); beyond that the whole table is set smaller (down to 6 pt) and then the flex column
// shrinks further, its text ending in "…".
TableGeometry geometryOf(const Table& t) {
    TableGeometry g;
    double excess = 0;
    g.widths = columnWidths(t, g.size, excess);
    const auto f = static_cast<std::size_t>(t.flexColumn);
    if (excess > 0 && g.widths[f] - excess < std::min(g.widths[f], kContentW / 3)) {
        g.size = std::max(6.0, kCell * kContentW / (kContentW + excess));
        g.widths = columnWidths(t, g.size, excess);
    }
    if (excess > 0)
        g.widths[f] = std::max(40.0, g.widths[f] - excess);
    g.headerH = headerHeight(t, g.widths, g.size);
    return g;
}

void Layout::tableHeader(const Table& t, const TableGeometry& g) {
    const double total = g.total();
    w_.fillRect(kMargin, y_, total, g.headerH, kHeaderFill);
    double x = kMargin;
    for (std::size_t i = 0; i < t.headers.size(); ++i) {
        const double tx = x + kPad, avail = g.widths[i] - 2 * kPad;
        if (t.headerSwatches.size() > i && !t.headerSwatches[i].empty())
            w_.fillRect(x, y_, g.widths[i], 2.5, Rgb::fromHex(t.headerSwatches[i]));
        double ly = y_ + 2 + g.size * 1.0;
        const bool right = t.numeric.size() > i && t.numeric[i]; // headers align with their numbers
        for (const auto& l : pdf::wrapText(t.headers[i], Font::HelveticaBold, g.size, avail)) {
            const auto fitted = pdf::fitText(l, Font::HelveticaBold, g.size, avail);
            const double lx = right ? tx + avail - pdf::textWidth(fitted, Font::HelveticaBold, g.size) : tx;
            w_.text(lx, ly, fitted, Font::HelveticaBold, g.size, kText);
            ly += g.size + 1;
        }
        x += g.widths[i];
    }
    w_.strokeRect(kMargin, y_, total, g.headerH, 0.5, kGrid);
    y_ += g.headerH;
}

double Layout::tableHeight(const Table& t) {
    const auto g = geometryOf(t);
    return 8 + g.headerH + kRowH * static_cast<double>(t.rows.size());
}

void Layout::table(const Table& t) {
    const auto g = geometryOf(t);
    const double total = g.total();
    y_ += 4;
    need(g.headerH + kRowH * static_cast<double>(std::min<std::size_t>(t.rows.size(), 3)));
    tableHeader(t, g);
    for (const auto& row : t.rows) {
        if (y_ + kRowH > kBottom) {
            newPage();
            tableHeader(t, g);
        }
        double x = kMargin;
        for (std::size_t i = 0; i < g.widths.size() && i < row.size(); ++i) {
            const auto& c = row[i];
            const Font font = c.bold ? Font::HelveticaBold : Font::Helvetica;
            double tx = x + kPad;
            if (!c.swatch.empty()) {
                w_.fillRect(tx, y_ + 3.5, kSwatch, kSwatch, Rgb::fromHex(c.swatch));
                tx += kSwatch + 3;
            }
            const auto text = pdf::fitText(c.text, font, g.size, x + g.widths[i] - kPad - tx);
            if (t.numeric.size() > i && t.numeric[i])
                tx = x + g.widths[i] - kPad - pdf::textWidth(text, font, g.size);
            w_.text(tx, y_ + 9.3, text, font, g.size, c.color);
            x += g.widths[i];
        }
        y_ += kRowH;
        w_.line(kMargin, y_, kMargin + total, y_, 0.5, kGrid);
    }
    y_ += 4;
}

void Layout::barChart(const std::vector<report::Bar>& bars, const std::string& unit) {
    const double height = kBarChartHeight, left = 48, right = 8, top = 24, bottom = 26;
    need(height + 8);
    const double x0 = kMargin + left, plotW = kContentW - left - right;
    const double yTop = y_ + top, plotH = height - top - bottom;
    double maxV = 0;
    for (const auto& b : bars)
        maxV = std::max({maxV, b.value, b.errHi});
    const double step = report::niceStep(maxV * 1.1, 5);
    const double axisMax = std::max(step, std::ceil(maxV * 1.1 / step) * step);
    auto y = [&](double v) { return yTop + plotH * (1.0 - v / axisMax); };
    w_.text(kMargin, y_ + 10, unit, Font::Helvetica, 7.5, kMuted);
    for (double t = 0; t <= axisMax + step / 2; t += step) {
        w_.line(x0, y(t), x0 + plotW, y(t), 0.4, kGridLight);
        const auto label = report::tickLabel(t);
        w_.text(x0 - 5 - pdf::textWidth(label, Font::Helvetica, 7.5), y(t) + 2.6, label, Font::Helvetica, 7.5,
                kMuted);
    }
    const double slot = bars.empty() ? plotW : plotW / static_cast<double>(bars.size());
    const double barW = std::min(64.0, slot * 0.6);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto& b = bars[i];
        const double cx = x0 + slot * (static_cast<double>(i) + 0.5);
        w_.fillRect(cx - barW / 2, y(b.value), barW, yTop + plotH - y(b.value), Rgb::fromHex(b.color));
        if (b.errHi > b.errLo) {
            w_.line(cx, y(b.errLo), cx, y(b.errHi), 1, kText);
            for (double e : {b.errLo, b.errHi})
                w_.line(cx - 6, y(e), cx + 6, y(e), 1, kText);
        }
        if (!b.annotation.empty()) { // set smaller (down to 5.5 pt) when wider than the bar's slot
            const double natural = pdf::textWidth(b.annotation, Font::HelveticaBold, 8);
            const double size = std::max(5.5, std::min(8.0, 8.0 * (slot - 4) / natural));
            const auto text = pdf::fitText(b.annotation, Font::HelveticaBold, size, slot - 4);
            const double aw = pdf::textWidth(text, Font::HelveticaBold, size);
            w_.text(cx - aw / 2, y(std::max(b.value, b.errHi)) - 5, text, Font::HelveticaBold, size, kText);
        }
        const auto label = pdf::fitText(b.label, Font::Helvetica, 8, slot - 4);
        w_.text(cx - pdf::textWidth(label, Font::Helvetica, 8) / 2, yTop + plotH + 13, label, Font::Helvetica,
                8, kText);
    }
    w_.line(x0, yTop + plotH, x0 + plotW, yTop + plotH, 0.8, kMuted);
    y_ += height;
}

void Layout::stackedBars(const std::vector<report::StackedBar>& bars, const std::string& unit,
                         double unitScale) {
    const double labelW = 130, rowH = 22, barH = 14, axisH = 28;
    const double height = stackedBarsHeight(bars.size());
    need(height + 8);
    const double x0 = kMargin + labelW, plotW = kContentW - labelW - 10;
    double maxSum = 0;
    for (const auto& b : bars) {
        double sum = 0;
        for (const auto& p : b.parts)
            sum += p.value;
        maxSum = std::max(maxSum, sum);
    }
    const double step = report::niceStep(maxSum / unitScale, 5) * unitScale;
    const double axisMax = std::max(step, std::ceil(maxSum / step) * step);
    auto x = [&](double v) { return x0 + plotW * v / axisMax; };
    const double top = y_ + 6, axisY = top + rowH * static_cast<double>(bars.size());
    for (double t = 0; t <= axisMax + step / 2; t += step) {
        w_.line(x(t), top, x(t), axisY, 0.4, kGridLight);
        const auto label = report::tickLabel(t / unitScale);
        w_.text(x(t) - pdf::textWidth(label, Font::Helvetica, 7.5) / 2, axisY + 10, label, Font::Helvetica,
                7.5, kMuted);
    }
    w_.text(x0 + plotW / 2 - pdf::textWidth(unit, Font::Helvetica, 7.5) / 2, axisY + 21, unit,
            Font::Helvetica, 7.5, kMuted);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double yb = top + rowH * static_cast<double>(i) + (rowH - barH) / 2;
        const auto label = pdf::fitText(bars[i].label, Font::Helvetica, 8, labelW - 8);
        w_.text(x0 - 6 - pdf::textWidth(label, Font::Helvetica, 8), yb + barH / 2 + 2.8, label,
                Font::Helvetica, 8, kText);
        double acc = 0;
        for (const auto& p : bars[i].parts) {
            if (p.value <= 0)
                continue;
            w_.fillRect(x(acc), yb, x(acc + p.value) - x(acc), barH, Rgb::fromHex(p.color));
            acc += p.value;
        }
    }
    w_.line(x0, axisY, x0 + plotW, axisY, 0.8, kMuted);
    double lx = x0;
    const double ly = axisY + axisH + 8;
    if (!bars.empty())
        for (const auto& p : bars.front().parts) {
            w_.fillRect(lx, ly - 7, 8, 8, Rgb::fromHex(p.color));
            w_.text(lx + 11, ly, p.label, Font::Helvetica, 8, kText);
            lx += 11 + pdf::textWidth(p.label, Font::Helvetica, 8) + 14;
        }
    y_ += height;
}

Cell num(std::string text) {
    return Cell{std::move(text)};
}

Cell ratioCell(const RatioWithCi& r) {
    if (r.significant)
        return Cell{report::ratioText(r)};
    return Cell{report::ratioText(r) + (r.hasCi ? report::kNotSignificant : ""), kNotSig};
}

Table runsTable(const Workspace& ws) {
    Table t;
    t.headers = report::runsHeaders();
    t.numeric = {false, false, false, true, false, true, true};
    t.flexColumn = 1;
    for (const auto& r : ws.runs())
        t.rows.push_back({Cell{r.info.name + (r.info.synthetic ? " (synthetic)" : "")}, Cell{r.info.config},
                          Cell{r.info.sourceFormat}, num(std::to_string(r.rankCount)),
                          Cell{r.info.gpuModels.empty() ? "-" : r.info.gpuModels.front()},
                          num(units::count(r.kernelCount)), num(units::count(r.info.skipped.count))});
    return t;
}

Table ablationTable(const AblationResult& a, const std::vector<std::string>& plan) {
    Table t;
    t.headers = report::ablationHeaders();
    t.numeric = {false, true, true, true, true, true, true, false, false};
    for (const auto& c : a.configs)
        t.rows.push_back({Cell{c.config, kText, false, report::configurationColor(c.config, plan)},
                          num(std::to_string(c.runs.size())), num(std::to_string(c.stepTimesNs.size())),
                          num(report::ms(c.medianStepNs)), num(report::ciText(c)),
                          num(units::rate(c.throughput, c.throughputUnit)),
                          num(c.mfu ? units::percent(*c.mfu) : "–"),
                          c.config == a.baseline ? Cell{"baseline"} : ratioCell(c.speedupVsBaseline),
                          c.gainVsPrevious ? ratioCell(*c.gainVsPrevious) : Cell{"–"}});
    return t;
}

Table breakdownTable(const AblationResult& a) {
    Table t;
    t.headers = report::breakdownHeaders();
    t.numeric = {false, true, true, true, true, true, true};
    for (const auto& c : a.configs) {
        const auto& b = c.breakdownMeanNs;
        t.rows.push_back({Cell{c.config}, num(report::ms(c.meanStepNs)), num(report::ms(b.compute)),
                          num(report::ms(b.communication)), num(report::ms(b.overlap)),
                          num(report::ms(b.memory)), num(report::ms(b.idle))});
    }
    return t;
}

Table attributionTable(const AblationResult& a) {
    Table t;
    t.headers.push_back("Configuration");
    t.headerSwatches.push_back("");
    t.numeric.push_back(false);
    for (const auto& cat : a.categories) {
        t.headers.push_back(cat);
        t.headerSwatches.push_back(palette::categoryColor(cat));
        t.numeric.push_back(true);
    }
    t.headers.push_back("Total (ms)");
    t.headerSwatches.push_back("");
    t.numeric.push_back(true);
    for (const auto& c : a.configs) {
        if (!c.attributionVsPreviousNs)
            continue;
        std::vector<Cell> row{Cell{c.config}};
        for (const auto& cat : a.categories) {
            const Ns v = report::attributionOf(c, cat);
            row.push_back(Cell{report::ms(v), v < 0 ? kFaster : v > 0 ? kSlower : kText});
        }
        row.push_back(Cell{report::ms(c.attributionTotalNs), kText, true});
        t.rows.push_back(std::move(row));
    }
    return t;
}

Table kernelTable(const std::vector<KernelStatRow>& rows) {
    Table t;
    t.headers = report::kernelHeaders();
    t.numeric = {false, false, true, true, true, true, true};
    t.flexColumn = 0;
    for (const auto& k : rows)
        t.rows.push_back({Cell{k.name}, Cell{k.category}, num(units::count(k.count)),
                          num(units::duration(static_cast<double>(k.totalNs))),
                          num(units::duration(k.meanNs)), num(units::duration(k.medianNs)),
                          num(units::percent(k.percent / 100.0))});
    return t;
}

} // namespace

void writePdfReport(const Workspace& ws, std::ostream& out, const ReportOptions& opt) {
    if (ws.runs().empty())
        throw InputError(ws.path(), "the workspace has no runs to report on");
    const auto ablation = computeAblation(ws, opt.ablation);
    const auto plan = ws.planOrder();
    PdfWriter w(opt.compressPdf);
    w.setTitle(opt.title);
    Layout l(w);
    l.title(opt.title);
    l.meta(report::metaLine(ws, opt, ablation.baseline));

    l.heading("Runs");
    l.table(runsTable(ws));

    // Each section's heading is kept on one page with its prose, chart and table when they fit on a page.
    constexpr double kProse = 40, kKeepMax = kBottom - kTop - 60;
    const auto ablationT = ablationTable(ablation, plan);
    l.heading("Ablation",
              std::min(kKeepMax, kProse + Layout::kBarChartHeight + Layout::tableHeight(ablationT)));
    l.paragraph(std::string(report::kAblationIntro) + " " + ablation.baseline + report::kAblationIntroEnd);
    const std::string unit = ablation.configs.empty() ? "steps/s" : ablation.configs.front().throughputUnit;
    l.barChart(report::ablationBars(ablation, plan), unit);
    l.table(ablationT);
    for (const auto& w : ablation.warnings)
        l.paragraph("Warning: " + w.message);

    const auto breakdownT = breakdownTable(ablation);
    l.heading("Where the time went",
              std::min(kKeepMax, kProse + Layout::stackedBarsHeight(ablation.configs.size()) +
                                     Layout::tableHeight(breakdownT)));
    l.paragraph(report::kBreakdownIntro);
    l.stackedBars(report::breakdownBars(ablation), "ms per step (mean)", 1e6);
    l.table(breakdownT);

    const auto attributionT = attributionTable(ablation);
    l.heading("What each step bought", std::min(kKeepMax, kProse + Layout::tableHeight(attributionT)));
    l.paragraph(report::kAttributionIntro);
    l.table(attributionT);

    l.heading("Top kernels", 60);
    for (const auto& r : ws.runs()) {
        const RunSummaryReader reader(ws, r.id);
        const auto rows = reader.kernelStats(-1, opt.topKernels);
        l.subheading(r.info.name + " (" + r.info.config + ")",
                     kRowH * static_cast<double>(std::min<std::size_t>(rows.size(), 4) + 2));
        l.table(kernelTable(rows));
    }

    const int pages = w.pageCount();
    for (int i = 0; i < pages; ++i) {
        w.selectPage(i);
        const std::string footer =
            opt.title + " · page " + std::to_string(i + 1) + " of " + std::to_string(pages);
        const auto text = pdf::fitText(footer, Font::Helvetica, 7.5, kContentW);
        w.text(PdfWriter::kPageWidth / 2 - pdf::textWidth(text, Font::Helvetica, 7.5) / 2,
               PdfWriter::kPageHeight - 28, text, Font::Helvetica, 7.5, kMuted);
    }
    w.write(out);
}

} // namespace cnp
