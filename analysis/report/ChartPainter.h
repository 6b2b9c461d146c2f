#pragma once
// The report's charts, drawn by one cairo drawing code onto any cairo surface: a PDF page (the PDF
// report) or an SVG surface (the HTML report's inline SVG), so both formats show the same drawing.
// Sizes in points; text through report/CairoText (Pango). Colours from the figure (report/Palette).
#include "report/Figure.h"

#include <cairo.h>

#include <string>

namespace cnp::report {

// The height a chart needs at the given width (points).
double chartHeight(const Chart& chart, double width);

// Draws the chart into the rectangle (0, 0, width, chartHeight(chart, width)) of cr's user space.
void drawChart(cairo_t* cr, const Chart& chart, double width);

// The chart as a standalone <svg> element (no XML prolog) for inline use in HTML. Every id the SVG
// defines (cairo names glyphs, clips and surfaces) is prefixed with `idPrefix`, so several charts can
// share one HTML document without their ids colliding.
std::string chartSvg(const Chart& chart, double width, const std::string& idPrefix);

// Axis helpers: a "nice" tick step (1, 2 or 5 x 10^k) giving about `ticks` intervals up to maxValue,
// and a short tick label (0, 2.5, 40, 1.5k, 12M).
double niceStep(double maxValue, int ticks);
std::string tickLabel(double v);

} // namespace cnp::report
