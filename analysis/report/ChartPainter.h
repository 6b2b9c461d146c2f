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

// Axis ticks and their labels: report/AxisScale.

// Draws the chart into the rectangle (0, 0, width, chartHeight(chart, width)) of cr's user space. Every
// loop is bounded by a count (bars, parts, at most kMaxAxisTicks ticks), whatever the values, NaN and
// inf included. Throws Cancelled (core/InputError.h) when an interrupt was requested (core/Interrupt.h).
void drawChart(cairo_t* cr, const Chart& chart, double width);

// The chart as a standalone <svg> element (no XML prolog) for inline use in HTML. Every id the SVG
// defines (cairo names glyphs, clips and surfaces) is prefixed with `idPrefix`, so several charts can
// share one HTML document without their ids colliding.
std::string chartSvg(const Chart& chart, double width, const std::string& idPrefix);

} // namespace cnp::report
