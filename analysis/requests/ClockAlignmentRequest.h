#pragma once
// The hosts' clock alignment of a stored run (metrics/ClockAligner.h, docs/metrics.md "Clock alignment"),
// fitted once at the end of ingest and kept as run attribute `clock.alignment` (docs/schema.md), so that
// `cnp collectives`, `cnp stragglers` and the Run page state it without matching the run again.
// The fit at ingest reads the communication kernels of at most kClockRanksPerHost ranks of each host (the
// lowest): a host's clock is one for all its ranks, and the median of three departures is robust to one
// slow link. Memory O(hosts x kClockRanksPerHost x communication kernels per rank), so a 1,024-rank run of
// 8 GPUs per node reads 384 ranks' collectives rather than 1,024.
#include "core/Ids.h"
#include "metrics/ClockAligner.h"

#include <optional>

namespace cnp {

class Workspace;

inline constexpr int kClockRanksPerHost = 3;

// The alignment fitted from the run's collectives as above. Inside the caller's read snapshot.
ClockAlignment fitRunClocks(const Workspace& ws, RunId runId);
// Fits (fitRunClocks, in a read snapshot of its own) and stores the run's alignment in a write transaction
// of its own. Throws what the store throws; the caller decides what becomes of the run.
void recordClockAlignment(Workspace& ws, RunId runId);
// The stored alignment; nullopt when the run has none (ingested before it was stored) or its text is not
// one (a hostile or damaged workspace: then computed on demand as for an old one).
std::optional<ClockAlignment> storedClockAlignment(const Workspace& ws, RunId runId);

} // namespace cnp
