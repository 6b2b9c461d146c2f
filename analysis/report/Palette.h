#pragma once
// The one colour table of the product: categories and configurations look the same on every GUI page
// and in every report. Colours are "#rrggbb".
#include <string>
#include <string_view>
#include <vector>

namespace cnp::palette {

// Colour of a category (gemm, attention, ..., communication, memory, idle, overlap; also "compute").
// Unknown categories get a stable colour derived from their name.
std::string categoryColor(std::string_view category);
// Distinct configuration colours; position kConfigurationColors repeats position 0.
inline constexpr int kConfigurationColors = 12;
// Colour of the configuration at position `planIndex` of the plan order (cycles after
// kConfigurationColors).
std::string configurationColor(int planIndex);
// Colour of configuration `config`, keyed by its position in `plan` (Workspace::planOrder(): the stored
// plan, then the other configurations in order of first ingest). Every page, table and report passes the
// workspace's plan, so a configuration keeps its colour however a chart or table orders its rows. A
// label missing from `plan` gets the colour of position plan.size().
std::string configurationColor(std::string_view config, const std::vector<std::string>& plan);
// Run A and run B of a two-run comparison: a pair that no configuration and no category uses, so a
// comparison never reads as "configuration X vs configuration Y" by colour.
std::string runAColor();
std::string runBColor();

} // namespace cnp::palette
