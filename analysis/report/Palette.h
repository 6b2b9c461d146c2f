#pragma once
// The one colour table of the product: categories and configurations look the same on every GUI page
// and in every report. Colours are "#rrggbb".
#include <string>
#include <string_view>

namespace cnp::palette {

// Colour of a category (gemm, attention, ..., communication, memory, idle, overlap; also "compute").
// Unknown categories get a stable colour derived from their name.
std::string categoryColor(std::string_view category);
// Colour of the configuration at position `planIndex` of the plan order (cycles after 8).
std::string configurationColor(int planIndex);

} // namespace cnp::palette
