#pragma once
// Exposed versus overlapped communication per kernel (docs/metrics.md, "Collective efficiency"): the part of
// each communication kernel's [start, end) that the same rank's compute kernels cover (on any stream) is
// overlapped, the rest exposed — the per-step breakdown's |M ∩ C| and |M \ C| ("Temporal breakdown"),
// taken kernel by kernel so that they can be summed per operation and message size. Pure.
#include "core/CollectiveKernels.h"

#include <utility>
#include <vector>

namespace cnp {

// Sets every kernel's overlappedNs from `compute`: the rank's compute kernels' [start, end), any order
// (sorted and merged here; intervals with end < start are ignored). O(c log c + k log c + the merged
// intervals each kernel spans) for k kernels and c compute intervals; memory O(c).
void setCommunicationOverlap(RankCollectives& rank, std::vector<std::pair<Ns, Ns>> compute);

} // namespace cnp
