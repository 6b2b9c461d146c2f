#pragma once
// A minimal PDF 1.4 writer for reports: A4 portrait pages holding text in the standard Type1 fonts
// Helvetica and Helvetica-Bold (WinAnsiEncoding, nothing embedded), filled rectangles and lines in RGB.
//
// Invariants of the written file:
//  - header "%PDF-1.4" followed by a binary comment line, so tools treat the file as binary;
//  - object 1 is the catalog, 2 the page tree, 3 the Info dictionary, 4 and 5 the fonts F1 (Helvetica)
//    and F2 (Helvetica-Bold); page i (0-based) is object 6 + 2i and its content stream 7 + 2i;
//  - every object is written exactly once as "N 0 obj ... endobj", and the xref table holds its exact byte
//    offset (10 digits, 20-byte entries), so a reader needs no repair;
//  - string literals escape '(', ')' and '\' and contain only WinAnsi bytes (text is converted from UTF-8;
//    characters without a WinAnsi code become '?').
// Coordinates given to the drawing calls are points (1/72 inch) from the TOP-LEFT corner of the page,
// y growing downwards (the writer flips them into PDF's bottom-left system). Text y is the baseline.
// Memory: the page contents are held until write(); O(total content size).
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cnp::pdf {

enum class Font { Helvetica, HelveticaBold };

struct Rgb {
    double r = 0, g = 0, b = 0; // 0..1
    // "#rrggbb" (the palette's format); anything else is black.
    static Rgb fromHex(std::string_view hex);
};

// UTF-8 to WinAnsiEncoding bytes: ASCII and Latin-1 map to themselves, the WinAnsi extras in 0x80..0x9F
// (e.g. '–' U+2013 -> 0x96, '…' U+2026 -> 0x85) to their codes, everything else (control characters,
// other scripts, malformed UTF-8) to '?'. One output byte per decoded character.
std::string toWinAnsi(std::string_view utf8);
// A WinAnsi byte string as the body of a PDF literal string: '(', ')' and '\' are backslash-escaped.
std::string escapeLiteral(std::string_view winAnsi);
// Advance width of one WinAnsi code in 1/1000 em, from the Adobe AFM metrics of the standard fonts.
int glyphWidth(unsigned char code, Font font);
// Width in points of UTF-8 text set in `font` at `size` points (sum of the AFM widths; no kerning).
double textWidth(std::string_view utf8, Font font, double size);
// `utf8` shortened with a trailing "…" so that it fits into maxWidth points (unchanged when it fits).
std::string fitText(std::string_view utf8, Font font, double size, double maxWidth);
// Greedy wrap of `utf8` into lines no wider than maxWidth, breaking at spaces and after a '/' or '-' that
// follows a letter; a single over-long word gets its own (over-long) line.
std::vector<std::string> wrapText(std::string_view utf8, Font font, double size, double maxWidth);

class PdfWriter {
public:
    static constexpr double kPageWidth = 595.0;  // A4 portrait, points (210 mm)
    static constexpr double kPageHeight = 842.0; // 297 mm

    // compress: deflate the content streams (zlib); off gives plain-text streams (tests, debugging).
    explicit PdfWriter(bool compress = true);

    void setTitle(std::string utf8) { title_ = std::move(utf8); }

    // Appends a page and makes it current; drawing before the first beginPage() starts one implicitly.
    void beginPage();
    // Makes an existing page (0-based) current again, e.g. to add "page i of n" footers at the end.
    void selectPage(int index);
    int pageCount() const { return static_cast<int>(pages_.size()); }
    int currentPage() const { return current_; }

    void text(double x, double baselineY, std::string_view utf8, Font font, double size, Rgb color = {});
    void fillRect(double x, double y, double w, double h, Rgb color);
    void strokeRect(double x, double y, double w, double h, double lineWidth, Rgb color);
    void line(double x1, double y1, double x2, double y2, double lineWidth, Rgb color);

    // Writes the complete document (at least one page: an empty document gets one blank page).
    void write(std::ostream& out);

private:
    std::string& content();

    bool compress_;
    std::string title_;
    std::vector<std::string> pages_; // content stream of each page, uncompressed
    int current_ = -1;
};

} // namespace cnp::pdf
