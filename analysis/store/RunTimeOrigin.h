#pragma once
// The one time origin of the product: a run's times are shown as "time since the run start", the
// earliest start (or sample) over every event of the run — exactly TimelineModel::runStart, so the
// timeline's ruler, the kernels page's occurrence starts and every other relative time agree.
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstdint>

namespace cnp {

class Workspace;

// Earliest start of any event of `runId` (kernels, copies, memsets, GPU annotations, API calls, CPU
// ranges, counter samples, steps as the timeline's steps row draws them); 0 for a run without events.
// O(events of the run): one MIN per event table over the run's id range.
Ns runTimeOrigin(const Workspace& ws, RunId runId);

} // namespace cnp
