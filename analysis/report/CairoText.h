#pragma once
// Text on a cairo surface through Pango (shaping, font fallback through fontconfig: a CJK name falls back
// to a CJK font such as Noto Sans CJK, "→" and "µ" to whichever installed font has them). Coordinates in
// the context's user units (points in the PDF). Text is UTF-8; invalid sequences are replaced.
#include <cairo.h>

#include <string>

namespace cnp::report {

struct TextStyle {
    double size = 8; // points
    bool bold = false;
    bool italic = false;
    bool mono = false;
    std::string color = "#222222";
};

enum class HAlign { Left, Center, Right };
enum class Elide { None, End, Middle };

struct TextBox {
    double width = 0, height = 0;
};

// The natural size of one line of `text` (or of the wrapped paragraph when wrapWidth > 0).
TextBox measureText(cairo_t* cr, const std::string& text, const TextStyle& style, double wrapWidth = -1);

// Draws `text` with its box's top edge at y. x is the left edge, centre or right edge per `align`.
// width > 0 limits the line: Elide::None wraps at word boundaries, End/Middle shorten with "…".
// Returns the drawn box. isElided() says whether a given width would shorten the text.
TextBox drawText(cairo_t* cr, const std::string& text, double x, double y, const TextStyle& style,
                 HAlign align = HAlign::Left, double width = -1, Elide elide = Elide::None);
bool isElided(cairo_t* cr, const std::string& text, const TextStyle& style, double width);

// Sets the source colour from "#rrggbb" (anything else: dark grey), with the given alpha.
void setColor(cairo_t* cr, const std::string& hex, double alpha = 1.0);

} // namespace cnp::report
