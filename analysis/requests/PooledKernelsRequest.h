#pragma once
// Kernel statistics pooled over stored runs (metrics/PooledKernels.h), read in one read transaction.
#include "metrics/PooledKernels.h"
#include "store/Workspace.h"

#include <cstdint>
#include <vector>

namespace cnp {

// Every kernel name of the runs `runIds`; throws InputError for a run that does not exist or has no
// summaries.
PooledKernels poolKernels(const Workspace& ws, const std::vector<RunId>& runIds);

} // namespace cnp
