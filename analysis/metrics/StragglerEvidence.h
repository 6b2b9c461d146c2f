#pragma once
// One rank's straggler evidence (metrics/StragglerScorer.h) in words, the same for `cnp stragglers` and
// the workbench's Ranks page: a headline, then compute, host idle, transfer and its slowest kernels.
// Numbers in the product's one style (core/Units.h).
#include "metrics/StragglerScorer.h"

#include <string>
#include <vector>

namespace cnp {

// "rank 7: last at 12 of 40 calls, 3.20 ms later than the median arrival in all; causes: slower-gpu" and
// the evidence lines; kernel names longer than `nameWidth` characters are cut with "...".
std::vector<std::string> stragglerEvidenceLines(const RankStraggling& s, std::size_t nameWidth = 70);
// The causes joined with ", ", "-" when none.
std::string stragglerCausesText(const RankStraggling& s);

} // namespace cnp
