#pragma once
// The workbench's pages, in sidebar order. Ctrl+1..Ctrl+9 select them in this order.
#include <QString>

#include <array>
#include <optional>

namespace cnp::wb {

enum class PageId { Ablation = 0, Compare, Kernels, Insights, Timeline, Run, Ranks, Plans, Trend };

inline constexpr int kPageCount = 9;

// The command-line / settings key of a page ("ablation", "compare", ...).
QString pageKey(PageId id);
// The title shown in the sidebar ("Ablation", ...).
QString pageTitle(PageId id);
// Parses a key as written by pageKey(); nullopt for anything else (case-insensitive).
std::optional<PageId> pageFromKey(const QString& key);
std::array<PageId, kPageCount> allPages();

} // namespace cnp::wb
