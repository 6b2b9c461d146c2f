#pragma once
// A clock alignment (metrics/ClockAligner.h) as the text of run attribute `clock.alignment`
// (docs/schema.md): one JSON object, written at the end of ingest and read by `cnp collectives`, `cnp
// stragglers` and the Run page instead of matching the run's collectives again. The text comes from a
// workspace, so it is read as hostile: any missing or mistyped field, a number out of range, more hosts
// than kMaxStoredHosts or text over kMaxStoredBytes reads as no stored alignment at all; parsed without
// recursion (RapidJSON's iterative parser). Pure; O(text).
#include "metrics/ClockAligner.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cnp {

inline constexpr std::size_t kMaxStoredHosts = 1 << 16;
inline constexpr std::size_t kMaxStoredBytes = 64 << 20;

std::string clockAlignmentToText(const ClockAlignment& a);
// nullopt when `text` is not an alignment as clockAlignmentToText writes it (bounds above).
std::optional<ClockAlignment> clockAlignmentFromText(std::string_view text);

} // namespace cnp
