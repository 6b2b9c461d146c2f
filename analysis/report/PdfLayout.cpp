#include "report/PdfLayout.h"

#include "report/CairoText.h"
#include "report/ChartPainter.h"

#include <algorithm>
#include <numeric>

namespace cnp::report {

namespace {

const TextStyle kTitle{18, true};
const TextStyle kMeta{8.5, false, false, false, "#666666"};
const TextStyle kBody{8.5};
const TextStyle kCaption{7.5, false, true, false, "#555555"};
const TextStyle kHeader{7, true};
const TextStyle kCellText{7.5};
const TextStyle kFooter{7, false, false, false, "#777777"};
constexpr double kRowHeight = 11.5, kCellPad = 3, kSwatch = 6;
constexpr double kMinTableScale = 0.7; // tables too wide for the page shrink their text down to this

// Table text at `scale` (below 1 for tables too wide for the page at their natural size).
TextStyle headerStyle(double scale) {
    TextStyle s = kHeader;
    s.size *= scale;
    return s;
}

TextStyle cellStyle(const Column& col, const Cell& c, double scale) {
    TextStyle s = kCellText;
    s.mono = col.kind == ColumnKind::Kernel;
    s.size = (s.mono ? 7 : 7.5) * scale;
    s.bold = c.bold;
    s.italic = c.muted;
    if (c.muted)
        s.color = "#999999";
    else if (c.sign < 0)
        s.color = "#2e7d32";
    else if (c.sign > 0)
        s.color = "#c62828";
    return s;
}

// The width of the widest space-separated word of `text`.
double longestWordWidth(cairo_t* cr, const std::string& text, const TextStyle& style) {
    double widest = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        if (end > start)
            widest = std::max(widest, measureText(cr, text.substr(start, end - start), style).width);
        start = end + 1;
    }
    return widest;
}

const char* severityColor(InsightSeverity s) {
    return s == InsightSeverity::Critical ? "#e15759" : s == InsightSeverity::Warning ? "#f28e2b" : "#a0a0a0";
}

} // namespace

PageGeometry PageGeometry::of(PaperSize p) {
    PageGeometry g;
    if (p == PaperSize::Letter) {
        g.width = 612;
        g.height = 792;
    }
    return g;
}

PdfLayout::PdfLayout(cairo_t* cr, PageGeometry page, std::string footer, int totalPages)
    : cr_(cr), page_(page), footerText_(std::move(footer)), totalPages_(totalPages), y_(page.margin) {}

void PdfLayout::footer() {
    const double y = page_.height - page_.margin / 2 - 4;
    drawText(cr_, footerText_, page_.margin, y, kFooter, HAlign::Left, contentWidth() * 0.7, Elide::End);
    const std::string n = "page " + std::to_string(pageNo_) +
                          (totalPages_ > 0 ? " of " + std::to_string(totalPages_) : std::string());
    drawText(cr_, n, page_.width - page_.margin, y, kFooter, HAlign::Right);
}

void PdfLayout::newPage() {
    footer();
    cairo_show_page(cr_);
    ++pageNo_;
    y_ = page_.margin;
}

void PdfLayout::ensure(double height) {
    if (y_ + height > bottom() && y_ > page_.margin)
        newPage();
}

int PdfLayout::finish() {
    footer();
    cairo_show_page(cr_);
    return pageNo_;
}

void PdfLayout::title(const std::string& title, const std::string& meta) {
    y_ += drawText(cr_, title, page_.margin, y_, kTitle, HAlign::Left, contentWidth()).height + 2;
    y_ += drawText(cr_, meta, page_.margin, y_, kMeta, HAlign::Left, contentWidth()).height + 6;
}

void PdfLayout::heading(const std::string& text, double size, double keepWithNext) {
    const TextStyle st{size, true};
    const double h = measureText(cr_, text, st, contentWidth()).height;
    ensure(8 + h + 3 + keepWithNext); // the space above, the text, the space below, what must follow
    y_ += 8;
    y_ += drawText(cr_, text, page_.margin, y_, st, HAlign::Left, contentWidth()).height + 3;
}

void PdfLayout::section(const std::string& title, const std::vector<Block>& blocks) {
    // A section starts on a new page unless the current one is still mostly empty.
    if (y_ > page_.margin + (bottom() - page_.margin) * 0.55)
        newPage();
    heading(title, 13, std::max(80.0, blocks.empty() ? 0.0 : leadHeight(blocks.front()) + 5));
    setColor(cr_, "#cccccc");
    cairo_set_line_width(cr_, 0.6);
    cairo_move_to(cr_, page_.margin, y_);
    cairo_line_to(cr_, page_.width - page_.margin, y_);
    cairo_stroke(cr_);
    y_ += 5;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (const auto* h = std::get_if<Heading>(&blocks[i]))
            heading(h->text, 10, i + 1 < blocks.size() ? leadHeight(blocks[i + 1]) : 0);
        else
            block(blocks[i]);
    }
}

double PdfLayout::leadHeight(const Block& b) {
    if (const auto* h = std::get_if<Heading>(&b))
        return measureText(cr_, h->text, TextStyle{10, true}, contentWidth()).height + 11;
    if (const auto* p = std::get_if<Paragraph>(&b))
        return measureText(cr_, p->text, kBody, contentWidth()).height;
    if (const auto* f = std::get_if<Figure>(&b))
        return figureHeight(*f);
    if (const auto* t = std::get_if<Table>(&b)) {
        std::vector<double> heights;
        const auto widths = measureTable(*t, heights);
        double h = headerRow(*t, widths, false);
        for (std::size_t r = 0; r < heights.size() && r < 2; ++r)
            h += heights[r];
        scale_ = 1;
        return h;
    }
    if (const auto* l = std::get_if<NoteList>(&b); l && !l->notes.empty())
        return noteHeight(l->notes.front()) + 6;
    return 0;
}

void PdfLayout::paragraph(const std::string& text) {
    const double h = measureText(cr_, text, kBody, contentWidth()).height;
    ensure(h);
    y_ += drawText(cr_, text, page_.margin, y_, kBody, HAlign::Left, contentWidth()).height + 5;
}

double PdfLayout::figureHeight(const Figure& f) const {
    const std::string caption = "Figure " + std::to_string(figureNo_ + 1) + ". " + f.caption;
    return chartHeight(f.chart, contentWidth()) + measureText(cr_, caption, kCaption, contentWidth()).height +
           8;
}

void PdfLayout::figure(const Figure& f) {
    const double h = chartHeight(f.chart, contentWidth());
    const std::string caption = "Figure " + std::to_string(figureNo_ + 1) + ". " + f.caption;
    ensure(figureHeight(f));
    ++figureNo_;
    cairo_save(cr_);
    cairo_translate(cr_, page_.margin, y_);
    drawChart(cr_, f.chart, contentWidth());
    cairo_restore(cr_);
    y_ += h + 2;
    y_ += drawText(cr_, caption, page_.margin, y_, kCaption, HAlign::Left, contentWidth()).height + 8;
}

namespace {

// Caps the columns of `kind` at one common width (never below their minimum) so that `excess` points go:
// narrow columns stay whole and the widest give way first. Bisection on the cap: O(columns x 40).
void capColumns(std::vector<double>& w, const std::vector<double>& minimum, const Table& t, ColumnKind kind,
                double excess) {
    if (excess <= 0)
        return;
    auto capped = [&](std::size_t i, double cap) { return std::max(minimum[i], std::min(w[i], cap)); };
    auto saving = [&](double cap) {
        double s = 0;
        for (std::size_t i = 0; i < w.size(); ++i)
            if (t.columns[i].kind == kind)
                s += w[i] - capped(i, cap);
        return s;
    };
    double lo = 0, hi = *std::max_element(w.begin(), w.end());
    for (int it = 0; it < 40; ++it) {
        const double mid = (lo + hi) / 2;
        (saving(mid) >= excess ? lo : hi) = mid; // the largest cap that still saves enough
    }
    for (std::size_t i = 0; i < w.size(); ++i)
        if (t.columns[i].kind == kind)
            w[i] = capped(i, lo);
}

} // namespace

// Natural widths, then the text and kernel columns shrink (kernel names first, down to a third of the
// page; text columns wrap) until the table fits; number columns never shrink and never wrap.
std::vector<double> PdfLayout::columnWidths(const Table& t) const {
    const std::size_t n = t.columns.size();
    // natural: one line of every cell; minimum: numbers whole, kernel names down to a third of the page,
    // text down to its longest word (cells' words when the table fits that way, else the header's).
    std::vector<double> natural(n, 0), minimum(n, 0), headerWord(n, 0), cellWord(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        headerWord[i] = longestWordWidth(cr_, t.columns[i].title, headerStyle(scale_));
        natural[i] = std::max(
            headerWord[i], std::min(measureText(cr_, t.columns[i].title, headerStyle(scale_)).width, 70.0));
        for (const auto& r : t.rows) {
            const TextStyle st = cellStyle(t.columns[i], r[i], scale_);
            const double sw = r[i].swatch.empty() ? 0 : kSwatch + 3;
            natural[i] = std::max(natural[i], measureText(cr_, r[i].text, st).width + sw);
            if (t.columns[i].kind == ColumnKind::Text)
                cellWord[i] = std::max(cellWord[i], longestWordWidth(cr_, r[i].text, st) + sw);
        }
        natural[i] += 2 * kCellPad;
    }
    for (const bool cellWords : {true, false}) {
        for (std::size_t i = 0; i < n; ++i) {
            const double word = std::max(headerWord[i], cellWords ? cellWord[i] : 0.0) + 2 * kCellPad;
            minimum[i] = t.columns[i].kind == ColumnKind::Number ? natural[i]
                         : t.columns[i].kind == ColumnKind::Kernel
                             ? std::min(natural[i], contentWidth() / 3)
                             : std::min(natural[i], std::max(word, 50.0));
        }
        // Words are broken only when even the smallest table text cannot keep them whole.
        if (std::accumulate(minimum.begin(), minimum.end(), 0.0) <= contentWidth() || scale_ > kMinTableScale)
            break;
    }
    std::vector<double> w = natural;
    const double excess = std::accumulate(w.begin(), w.end(), 0.0) - contentWidth();
    capColumns(w, minimum, t, ColumnKind::Kernel, excess);
    capColumns(w, minimum, t, ColumnKind::Text, std::accumulate(w.begin(), w.end(), 0.0) - contentWidth());
    return w;
}

double PdfLayout::headerRow(const Table& t, const std::vector<double>& widths, bool draw) {
    double h = 0;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        h = std::max(
            h, measureText(cr_, t.columns[i].title, headerStyle(scale_), widths[i] - 2 * kCellPad).height);
    h += 2 * kCellPad;
    if (!draw)
        return h;
    double x = page_.margin;
    setColor(cr_, "#f2f2f2");
    cairo_rectangle(cr_, x, y_, std::accumulate(widths.begin(), widths.end(), 0.0), h);
    cairo_fill(cr_);
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        const bool right = t.columns[i].kind == ColumnKind::Number;
        drawText(cr_, t.columns[i].title, x + kCellPad, y_ + kCellPad, headerStyle(scale_),
                 right ? HAlign::Right : HAlign::Left, widths[i] - 2 * kCellPad);
        x += widths[i];
    }
    y_ += h;
    return h;
}

std::string PdfLayout::kernelCellText(const std::string& name, double width) {
    const TextStyle st = cellStyle({"", ColumnKind::Kernel, {}}, Cell{}, scale_);
    if (!isElided(cr_, name, st, width))
        return name;
    // The same name in several tables keeps one number.
    for (const auto& [n, full] : elided_)
        if (full == name)
            return "[" + std::to_string(n) + "] " + name;
    elided_.emplace_back(static_cast<int>(elided_.size()) + 1, name);
    return "[" + std::to_string(elided_.size()) + "] " + name;
}

// Text cells wrap inside their column; numbers and kernel names stay on one line. Every cell is
// top-aligned in a row as tall as its tallest cell.
double PdfLayout::rowHeight(const Table& t, const std::vector<Cell>& cells,
                            const std::vector<double>& widths) const {
    double h = kRowHeight * scale_;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        if (t.columns[i].kind == ColumnKind::Text) {
            const double inner = widths[i] - 2 * kCellPad - (cells[i].swatch.empty() ? 0 : kSwatch + 3);
            h = std::max(
                h,
                measureText(cr_, cells[i].text, cellStyle(t.columns[i], cells[i], scale_), inner).height + 4);
        }
    return h;
}

void PdfLayout::row(const Table& t, const std::vector<Cell>& cells, const std::vector<double>& widths,
                    double height, bool shaded) {
    const double total = std::accumulate(widths.begin(), widths.end(), 0.0);
    if (shaded) {
        setColor(cr_, "#fafafa");
        cairo_rectangle(cr_, page_.margin, y_, total, height);
        cairo_fill(cr_);
    }
    double x = page_.margin;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        const auto& col = t.columns[i];
        const auto& c = cells[i];
        const TextStyle st = cellStyle(col, c, scale_);
        double left = x + kCellPad, inner = widths[i] - 2 * kCellPad;
        if (!c.swatch.empty()) {
            setColor(cr_, c.swatch);
            cairo_rectangle(cr_, left, y_ + (kRowHeight * scale_ - kSwatch) / 2, kSwatch, kSwatch);
            cairo_fill(cr_);
            left += kSwatch + 3;
            inner -= kSwatch + 3;
        }
        const double ty = y_ + 2;
        if (col.kind == ColumnKind::Number)
            drawText(cr_, c.text, x + widths[i] - kCellPad, ty, st, HAlign::Right);
        else if (col.kind == ColumnKind::Kernel)
            drawText(cr_, kernelCellText(c.text, inner), left, ty, st, HAlign::Left, inner, Elide::Middle);
        else
            drawText(cr_, c.text, left, ty, st, HAlign::Left, inner);
        x += widths[i];
    }
    setColor(cr_, "#dddddd");
    cairo_set_line_width(cr_, 0.4);
    cairo_move_to(cr_, page_.margin, y_ + height);
    cairo_line_to(cr_, page_.margin + total, y_ + height);
    cairo_stroke(cr_);
    y_ += height;
}

std::vector<double> PdfLayout::measureTable(const Table& t, std::vector<double>& rowHeights) {
    // A table wider than the page at its minimum widths is set in smaller text (down to kMinTableScale).
    scale_ = 1;
    auto widths = columnWidths(t);
    for (int attempt = 0; attempt < 4; ++attempt) {
        const double total = std::accumulate(widths.begin(), widths.end(), 0.0);
        if (total <= contentWidth() + 0.5 || scale_ <= kMinTableScale)
            break;
        scale_ = std::max(kMinTableScale, scale_ * contentWidth() / total);
        widths = columnWidths(t);
    }
    rowHeights.clear();
    for (const auto& r : t.rows)
        rowHeights.push_back(rowHeight(t, r, widths));
    return widths;
}

void PdfLayout::table(const Table& t) {
    std::vector<double> heights;
    const auto widths = measureTable(t, heights);
    // The header and the first rows together, then rows until the page ends; the header repeats.
    double lead = 0;
    for (std::size_t r = 0; r < t.rows.size() && r < 2; ++r)
        lead += heights[r];
    ensure(headerRow(t, widths, false) + lead);
    headerRow(t, widths, true);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (y_ + heights[r] > bottom()) {
            newPage();
            headerRow(t, widths, true);
        }
        row(t, t.rows[r], widths, heights[r], r % 2 == 1);
    }
    y_ += 8;
    scale_ = 1;
}

namespace {

constexpr double kNoteIndent = 8;

TextStyle noteHeadStyle() {
    TextStyle bold = kBody;
    bold.bold = true;
    return bold;
}

} // namespace

double PdfLayout::noteHeight(const Note& n) const {
    const double w = contentWidth() - kNoteIndent;
    const std::string head = std::string(severityLabel(n.severity)) + ": " + n.title;
    double h = measureText(cr_, head, noteHeadStyle(), w).height;
    if (!n.explanation.empty())
        h += measureText(cr_, n.explanation, kBody, w).height + 2;
    return h + static_cast<double>(n.evidence.size()) * 10;
}

void PdfLayout::notes(const NoteList& l) {
    const double indent = kNoteIndent, w = contentWidth() - indent;
    TextStyle evidence = kCaption;
    evidence.italic = false;
    for (const auto& n : l.notes) {
        const std::string head = std::string(severityLabel(n.severity)) + ": " + n.title;
        const TextStyle bold = noteHeadStyle();
        const double h = noteHeight(n);
        ensure(h + 6);
        setColor(cr_, severityColor(n.severity));
        cairo_rectangle(cr_, page_.margin, y_, 3, h);
        cairo_fill(cr_);
        const double top = y_;
        y_ += drawText(cr_, head, page_.margin + indent, y_, bold, HAlign::Left, w).height;
        if (!n.explanation.empty())
            y_ += drawText(cr_, n.explanation, page_.margin + indent, y_ + 2, kBody, HAlign::Left, w).height +
                  2;
        for (const auto& e : n.evidence) {
            drawText(cr_, "• " + e, page_.margin + indent, y_, evidence, HAlign::Left, w, Elide::End);
            y_ += 10;
        }
        y_ = top + h + 6;
    }
}

// Every block but a Heading (section() lays those out, with what follows them).
void PdfLayout::block(const Block& b) {
    if (const auto* p = std::get_if<Paragraph>(&b))
        paragraph(p->text);
    else if (const auto* f = std::get_if<Figure>(&b))
        figure(*f);
    else if (const auto* t = std::get_if<Table>(&b))
        table(*t);
    else if (const auto* l = std::get_if<NoteList>(&b))
        notes(*l);
}

void PdfLayout::appendix() {
    if (elided_.empty())
        return;
    newPage();
    heading("Appendix: kernel names in full", 13, 40);
    paragraph("Kernel names too long for their table column are shortened in the middle there and marked "
              "[n]; these are the full names.");
    TextStyle mono = kCellText;
    mono.mono = true;
    mono.size = 7;
    for (const auto& [n, name] : elided_) {
        // A no-break space: a name without spaces that must wrap keeps its number on its first line.
        const std::string text = "[" + std::to_string(n) + "]\u00a0" + name;
        const double h = measureText(cr_, text, mono, contentWidth()).height;
        ensure(h);
        y_ += drawText(cr_, text, page_.margin, y_, mono, HAlign::Left, contentWidth()).height + 3;
    }
}

} // namespace cnp::report
