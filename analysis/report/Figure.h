#pragma once
// Chart data of the report's figures. The report model (report/ReportModel) fills them from the metrics;
// report/ChartPainter draws every kind with one cairo drawing code onto a PDF page or an SVG surface, so
// the PDF's and the HTML's charts are the same drawing. Colours are "#rrggbb" (report/Palette); values
// are in the chart's base unit (ns, tokens/s...) and divided by `unitScale` only for the axis labels.
#include <string>
#include <variant>
#include <vector>

namespace cnp::report {

// Vertical bars with optional error bars and an annotation above each bar (e.g. "1.25×").
struct Bar {
    std::string label;
    double value = 0;
    double errLo = 0, errHi = 0; // absolute bounds of the error bar; errLo == errHi: none
    std::string color;
    std::string annotation;
    bool muted = false; // annotation greyed (not significant)
};
struct BarChart {
    std::string unit; // axis title, e.g. "tokens/s"
    std::vector<Bar> bars;
};

// Horizontal stacked bars sharing one x scale, with a legend of the first bar's parts.
struct StackPart {
    std::string label;
    double value = 0;
    std::string color;
};
struct StackedBar {
    std::string label;
    std::vector<StackPart> parts;
};
struct StackedChart {
    std::string unit;
    double unitScale = 1; // axis labels show value / unitScale
    std::vector<StackedBar> bars;
};

// Incremental-gain waterfall: a start bar, one floating bar per step (its delta, green up / red down),
// and an end bar at start + sum(deltas).
struct WaterfallStep {
    std::string label;
    double delta = 0;
    bool significant = true; // false: drawn hatched-light
};
struct WaterfallChart {
    std::string unit;
    std::string startLabel, endLabel;
    double start = 0;
    std::vector<WaterfallStep> steps;
    std::string startColor, endColor; // the first and the last configuration's palette colours
};

// Rows x columns of values drawn as coloured cells (light = low, dark = high) with a colour-scale legend.
// values is row-major; a negative value means "no data" (drawn blank).
struct HeatmapChart {
    std::string unit;
    double unitScale = 1;
    std::string rowTitle, columnTitle;
    std::vector<std::string> rowLabels;
    std::size_t columns = 0;
    std::vector<double> values;
};

// Signed contributions per row around a zero line: negative parts stack to the left, positive to the
// right, and a black tick marks the row's total (e.g. the step-time change by category).
struct DivergingRow {
    std::string label;
    std::vector<StackPart> parts; // signed values
    double total = 0;
};
struct DivergingChart {
    std::string unit;
    double unitScale = 1;
    std::vector<DivergingRow> rows;
};

using Chart = std::variant<BarChart, StackedChart, WaterfallChart, HeatmapChart, DivergingChart>;

struct Figure {
    std::string caption; // one line under the chart
    Chart chart;
};

} // namespace cnp::report
