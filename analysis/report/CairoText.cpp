#include "report/CairoText.h"

#include "report/DrawnText.h"

#include <pango/pangocairo.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace cnp::report {

namespace {

// Sans for prose and numbers, Sans Mono for kernel names; fontconfig resolves both to installed fonts
// (DejaVu on Debian) and Pango falls back per character (Noto Sans CJK for Chinese).
constexpr const char* kSans = "DejaVu Sans, Noto Sans CJK SC, sans-serif";
constexpr const char* kMono = "DejaVu Sans Mono, Noto Sans Mono CJK SC, monospace";

struct LayoutDeleter {
    void operator()(PangoLayout* l) const { g_object_unref(l); }
};
using Layout = std::unique_ptr<PangoLayout, LayoutDeleter>;

Layout makeLayout(cairo_t* cr, const std::string& fullText, const TextStyle& style) {
    const std::string text = drawnText(fullText);
    Layout layout(pango_cairo_create_layout(cr));
    // Metrics independent of the surface's resolution, so the PDF and the SVG lay text out identically.
    PangoContext* ctx = pango_layout_get_context(layout.get());
    pango_cairo_context_set_resolution(ctx, 72);
    cairo_font_options_t* fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(ctx, fo);
    cairo_font_options_destroy(fo);
    pango_layout_context_changed(layout.get());

    PangoFontDescription* fd = pango_font_description_from_string(style.mono ? kMono : kSans);
    pango_font_description_set_size(fd, static_cast<int>(style.size * PANGO_SCALE));
    pango_font_description_set_weight(fd, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(fd, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    pango_layout_set_font_description(layout.get(), fd);
    pango_font_description_free(fd);
    // A word broken across lines (a long kernel name) gets no inserted hyphen: it is not part of the name.
    PangoAttrList* attrs = pango_attr_list_new();
    pango_attr_list_insert(attrs, pango_attr_insert_hyphens_new(FALSE));
    pango_layout_set_attributes(layout.get(), attrs);
    pango_attr_list_unref(attrs);

    gchar* valid = g_utf8_make_valid(text.c_str(), static_cast<gssize>(text.size()));
    pango_layout_set_text(layout.get(), valid, -1);
    g_free(valid);
    return layout;
}

void constrain(PangoLayout* layout, double width, Elide elide) {
    if (width <= 0)
        return;
    pango_layout_set_width(layout, static_cast<int>(width * PANGO_SCALE));
    switch (elide) {
    case Elide::None:
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
        break;
    case Elide::End:
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
        break;
    case Elide::Middle:
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE);
        break;
    }
}

TextBox extent(PangoLayout* layout) {
    PangoRectangle logical;
    pango_layout_get_extents(layout, nullptr, &logical);
    return {static_cast<double>(logical.width) / PANGO_SCALE,
            static_cast<double>(logical.height) / PANGO_SCALE};
}

} // namespace

TextBox measureText(cairo_t* cr, const std::string& text, const TextStyle& style, double wrapWidth) {
    auto layout = makeLayout(cr, text, style);
    constrain(layout.get(), wrapWidth, Elide::None);
    return extent(layout.get());
}

bool isElided(cairo_t* cr, const std::string& text, const TextStyle& style, double width) {
    auto layout = makeLayout(cr, text, style);
    return extent(layout.get()).width > width;
}

TextBox drawText(cairo_t* cr, const std::string& text, double x, double y, const TextStyle& style,
                 HAlign align, double width, Elide elide) {
    auto layout = makeLayout(cr, text, style);
    constrain(layout.get(), width, elide);
    if (width > 0 && elide == Elide::None)
        pango_layout_set_alignment(layout.get(), align == HAlign::Center  ? PANGO_ALIGN_CENTER
                                                 : align == HAlign::Right ? PANGO_ALIGN_RIGHT
                                                                          : PANGO_ALIGN_LEFT);
    const TextBox box = extent(layout.get());
    // A wrapped paragraph is aligned inside its width (x is then its left edge); a single line by x.
    double left = x;
    if (!(width > 0 && elide == Elide::None)) {
        if (align == HAlign::Center)
            left = x - box.width / 2;
        else if (align == HAlign::Right)
            left = x - box.width;
    }
    cairo_save(cr);
    setColor(cr, style.color);
    cairo_move_to(cr, left, y);
    pango_cairo_show_layout(cr, layout.get());
    cairo_restore(cr);
    return box;
}

void setColor(cairo_t* cr, const std::string& hex, double alpha) {
    unsigned long v = 0x333333;
    if (hex.size() == 7 && hex[0] == '#') {
        char* end = nullptr;
        const unsigned long parsed = std::strtoul(hex.c_str() + 1, &end, 16);
        if (end && *end == '\0')
            v = parsed;
    }
    cairo_set_source_rgba(cr, static_cast<double>((v >> 16) & 0xff) / 255.0,
                          static_cast<double>((v >> 8) & 0xff) / 255.0, static_cast<double>(v & 0xff) / 255.0,
                          alpha);
}

} // namespace cnp::report
