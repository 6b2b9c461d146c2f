#pragma once
// The most of one text a report lays out (issue 33.5: a PDF report of megabyte names or environment values
// took 35 to 106 s in Pango). Every text cairo draws (report/CairoText: PDF pages, SVG charts) passes
// through drawnText first. No cell, label or paragraph of a report is near the bound, and a cell shows far
// less than it. O(1) for a text within the bound, else O(bound).
#include <cstddef>
#include <string>

namespace cnp::report {

inline constexpr std::size_t kMaxDrawnBytes = 4096;

// `text` when at most kMaxDrawnBytes long; else its first kMaxDrawnBytes bytes, cut back to a UTF-8
// boundary, and "…".
std::string drawnText(const std::string& text);

} // namespace cnp::report
