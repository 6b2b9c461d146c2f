#pragma once
// Minimal SVG bar charts for the HTML report: vertical bars with optional error bars and labels, and
// horizontal stacked bars. Pure string building; coordinates in CSS pixels.
#include <string>
#include <vector>

namespace cnp::report {

struct Bar {
    std::string label;
    double value = 0;
    double errLo = 0, errHi = 0; // absolute bounds of the error bar; equal to value = none
    std::string color;
    std::string annotation; // drawn above the bar, e.g. "1.32×"
    std::string tooltip;
};

// Vertical bars, y axis from 0 with ~5 "nice" ticks labelled with `unit`.
std::string svgBarChart(const std::vector<Bar>& bars, const std::string& unit, int width = 720,
                        int height = 300);

struct StackPart {
    std::string label;
    double value = 0;
    std::string color;
};
struct StackedBar {
    std::string label;
    std::vector<StackPart> parts;
};

// Horizontal stacked bars sharing one x scale (sum of the largest bar), with a legend of part labels.
std::string svgStackedBars(const std::vector<StackedBar>& bars, const std::string& unit, double unitScale,
                           int width = 720);

std::string htmlEscape(const std::string& s);

} // namespace cnp::report
