#pragma once
// Flows the report model's blocks onto cairo PDF pages: headings kept with what follows, wrapped
// paragraphs, vector figures, tables that split between rows and repeat their header on every page,
// notes, and "page i of n" footers. Kernel names too wide for their column are elided in the middle and
// numbered; appendix() lists them in full. The layout is deterministic, so a first pass on a discarding
// surface gives the page count the second pass prints. Units: points, origin top-left.
#include "report/ReportModel.h"

#include <cairo.h>

#include <string>
#include <utility>
#include <vector>

namespace cnp::report {

struct PageGeometry {
    double width = 595.28, height = 841.89; // A4
    double margin = 50;
    static PageGeometry of(PaperSize p);
};

class PdfLayout {
public:
    // totalPages 0: not known yet (first pass), footers say "page i".
    PdfLayout(cairo_t* cr, PageGeometry page, std::string footer, int totalPages);

    void title(const std::string& title, const std::string& meta);
    // The section's heading and its blocks. A heading (the section's, or a sub-heading) starts a new page
    // unless the start of the block after it fits below it too (leadHeight).
    void section(const std::string& title, const std::vector<Block>& blocks);
    // The numbered full names of every elided kernel name, on new pages; nothing when none was elided.
    void appendix();
    // Ends the last page; returns the number of pages.
    int finish();

private:
    double contentWidth() const { return page_.width - 2 * page_.margin; }
    double bottom() const { return page_.height - page_.margin; }
    void ensure(double height); // a new page unless `height` fits below the cursor
    void newPage();
    void footer();
    void heading(const std::string& text, double size, double keepWithNext);
    // The height of the part of `b` that must share a page with the heading before it: a paragraph or a
    // figure (with its caption) whole, a table's header and first two rows, a note list's first note.
    double leadHeight(const Block& b);
    void block(const Block& b);
    void paragraph(const std::string& text);
    void figure(const Figure& f);
    double figureHeight(const Figure& f) const; // chart, caption and the space after them
    void table(const Table& t);
    // Sets scale_ for `t` (text shrunk for a table too wide at its natural size); returns its column widths
    // and fills `rowHeights`.
    std::vector<double> measureTable(const Table& t, std::vector<double>& rowHeights);
    void notes(const NoteList& l);
    double noteHeight(const Note& n) const; // the coloured bar's height
    std::vector<double> columnWidths(const Table& t) const;
    double headerRow(const Table& t, const std::vector<double>& widths, bool draw);
    double rowHeight(const Table& t, const std::vector<Cell>& cells, const std::vector<double>& widths) const;
    void row(const Table& t, const std::vector<Cell>& cells, const std::vector<double>& widths, double height,
             bool shaded);
    std::string kernelCellText(const std::string& name, double width);

    cairo_t* cr_;
    PageGeometry page_;
    std::string footerText_;
    int totalPages_;
    int pageNo_ = 1;
    int figureNo_ = 0;
    double scale_ = 1; // text scale of the table being laid out
    double y_;
    std::vector<std::pair<int, std::string>> elided_; // (footnote number, full kernel name)
};

} // namespace cnp::report
