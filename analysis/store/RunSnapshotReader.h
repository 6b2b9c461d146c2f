#pragma once
// Reads a run's snapshot (core/RunSnapshot.h): the parts asked for, in one read transaction, from the
// summary tables only (O(rows read); raw events are never scanned).
#include "core/CategoryOrder.h"
#include "core/RunSnapshot.h"

namespace cnp {

class Workspace;

// `order`: the exclusive-priority order of the request's category rules. Throws InputError when a
// summary part is asked for and the run has none (a workspace written before summaries existed).
RunSnapshot readRunSnapshot(const Workspace& ws, const RunRecord& run, const CategoryOrder& order,
                            const RunSnapshotParts& parts);

} // namespace cnp
