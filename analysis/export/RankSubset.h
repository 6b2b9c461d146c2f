#pragma once
// One rank of a run as a run of its own (for per-rank exports that re-ingest as separate ranks).
#include "core/TraceData.h"

namespace cnp {

// Copies the events, steps and RankInfo of `rank` (strings are shared by copying the table; ids stay
// valid). RunInfo is kept, including worldSize. Throws InputError(runName, ...) when the run has no
// such rank. O(events).
TraceData rankSubset(const TraceData& trace, std::int32_t rank);

} // namespace cnp
