#pragma once
// No cross-host ordering claim finer than the clocks' stated error (docs/metrics.md, "Clock alignment"):
// a call's last-arriving rank is only certain when every member on another host arrived more than the
// error before it; ranks of one host share a clock, so their order stands. Pure; O(members).
#include "metrics/CollectiveMatcher.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

// Per call of `match` (same order): 1 when a member on a host other than the last-arriving rank's arrived
// within `errorNs` of the last arrival (so which of them was last is not known), else 0. `hostOfRank`:
// (rank, host), any order; a rank without an entry is a host of its own.
std::vector<std::uint8_t>
uncertainLastArrivals(const CollectiveMatch& match,
                      const std::vector<std::pair<std::int32_t, std::string>>& hostOfRank, Ns errorNs);

} // namespace cnp
