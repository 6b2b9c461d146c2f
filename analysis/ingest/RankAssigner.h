#pragma once
// Gives the parts of one run (one TraceData per file, taken in order) their final rank numbers, one part at
// a time. Two files whose sources both name one rank (RankInfo::rankClaimed) are refused (InputError):
// they are two attempts or two jobs mixed in one folder, not one run. A single-rank file whose rank was
// defaulted (or repeats only a defaulted one) takes the next free rank (one above the highest so far); a
// multi-rank file repeating a rank is refused. O(ranks log ranks) per part.
#include "core/TraceData.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace cnp {

class RankAssigner {
public:
    // Renumbers `part` where its rank repeats an earlier part's and returns (old, new) when it did; throws
    // InputError naming `file`.
    std::optional<std::pair<std::int32_t, std::int32_t>> assign(TraceData& part, const std::string& file);

    // Gives every event and rank of `part` the number `fresh` instead of `old`.
    static void renumberRank(TraceData& part, std::int32_t old, std::int32_t fresh);

private:
    std::map<std::int32_t, std::string> claimedBy_; // rank -> file that named it
    std::set<std::int32_t> ranksSeen_;
};

} // namespace cnp
