#pragma once
// Aligned plain-text tables for the human-readable output of the analysis commands. The cells are
// formatted by cnp::units (core/Units.h, docs/formatting.md); widths count UTF-8 code points, so
// "µs" and "×" align like ASCII (one column each; wide CJK glyphs are not measured).
#include <ostream>
#include <string>
#include <vector>

namespace cnp::cli {

class TableOutput {
public:
    // Columns whose header starts with '>' are right-aligned (the '>' is not printed).
    explicit TableOutput(std::vector<std::string> headers);
    void addRow(std::vector<std::string> cells);
    void print(std::ostream& out, const std::string& indent = "") const;

private:
    std::vector<std::string> headers_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

} // namespace cnp::cli
