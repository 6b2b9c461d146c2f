#pragma once
// Aligned plain-text tables for the human-readable output of the analysis commands, plus the
// unit formatting they share (durations chosen for reading: ns, us, ms, s).
#include <cstdint>
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

    static std::string duration(double ns);      // "1.23 ms", "850 ns"
    static std::string percent(double fraction); // 0.123 -> "12.3%"
    static std::string fixed(double v, int decimals);
    static std::string count(std::int64_t v);

private:
    std::vector<std::string> headers_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

} // namespace cnp::cli
