#include "report/Palette.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <utility>

namespace cnp::palette {

std::string categoryColor(std::string_view category) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> colors = {{
        {"gemm", "#1f77b4"},
        {"recompute", "#aec7e8"}, // gemm's lighter kin: forward work done again
        {"attention", "#9467bd"},
        {"triton-fused", "#17becf"},
        {"elementwise/reduction", "#2ca02c"},
        {"optimizer", "#bcbd22"},
        {"other", "#8c564b"},
        {"compute", "#1f77b4"},
        {"communication", "#d62728"},
        {"memory", "#ff7f0e"},
        {"idle", "#a0a0a0"},
        {"overlap", "#e377c2"},
    }};
    for (const auto& [name, color] : colors)
        if (name == category)
            return std::string(color);
    // Stable fallback: a muted hue from the name's hash.
    const auto h = std::hash<std::string_view>{}(category);
    const int r = 90 + static_cast<int>(h % 120), g = 90 + static_cast<int>((h >> 8) % 120),
              b = 90 + static_cast<int>((h >> 16) % 120);
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
    return buf;
}

namespace {
// Tableau 10 without its grey (idle is grey), then four of Tableau 20: the bundled demo alone has nine
// configurations, and a study with a few controls more must not repeat a colour.
constexpr std::array<std::string_view, kConfigurationColors> kConfigColors = {
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2",
    "#edc948", "#9c755f", "#ff9da7", "#499894", "#8cd17d", "#a0cbe8"};
} // namespace

std::string configurationColor(int planIndex) {
    const int n = static_cast<int>(kConfigColors.size());
    return std::string(kConfigColors[static_cast<std::size_t>(((planIndex % n) + n) % n)]);
}

std::string configurationColor(std::string_view config, const std::vector<std::string>& plan) {
    const auto it = std::find(plan.begin(), plan.end(), config);
    return configurationColor(static_cast<int>(it - plan.begin()));
}

std::string runAColor() {
    return "#3d5a80";
}

std::string runBColor() {
    return "#d8a31a";
}

} // namespace cnp::palette
