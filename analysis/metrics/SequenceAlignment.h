#pragma once
// The longest common subsequence of two sequences of symbols (small integers), as the matched index pairs
// of a shortest edit script: Myers' O((N+M)·D) difference algorithm with its linear-space refinement (the
// middle snake, found from both ends at once), after trimming the common prefix and suffix of every range.
// Time O((N+M)·D), D = N + M − 2·|LCS|; memory O(N+M) (two diagonal arrays and a stack of ranges, no
// recursion). Symbols that occur in only one sequence are dropped before the search (they can never
// match), so D counts only the edits among shared symbols.
//
// A work budget bounds a pathological pair (many shared symbols, all reordered): once `maxWork` diagonal
// steps have been spent, every range still unsearched is left unmatched (all removed and added) and
// `truncated` is set. The matches found are then a common subsequence, not necessarily the longest.
#include <cstdint>
#include <utility>
#include <vector>

namespace cnp {

class SequenceAlignment {
public:
    struct Result {
        std::vector<std::pair<std::int32_t, std::int32_t>> matches; // (index in a, index in b), both rising
        bool truncated = false;
    };
    // Symbols are >= 0. Default budget: 2^30 diagonal steps (a few seconds at worst).
    static Result align(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b,
                        std::int64_t maxWork = std::int64_t{1} << 30);
};

} // namespace cnp
