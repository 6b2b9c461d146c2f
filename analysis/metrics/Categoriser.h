#pragma once
// Applies CategoryRules to every kernel of a trace: sets KernelEvent::category to the interned
// category name. Each unique kernel name id is classified once (a regex pass per rule), so the cost
// is O(kernels + unique names x rules x name length). Then the range rules: a compute kernel whose launch
// call starts inside a CPU range of a matching name on the launching thread takes the range rule's
// category (docs/metrics.md, "Categories"); O((ranges + API calls + kernels) log ranges), each unique range
// name matched once.
#include "core/TraceData.h"
#include "metrics/CategoryRules.h"

namespace cnp {

void categoriseKernels(TraceData& trace, const CategoryRules& rules);

} // namespace cnp
