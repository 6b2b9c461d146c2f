#pragma once
// Applies CategoryRules to every kernel of a trace: sets KernelEvent::category to the interned
// category name. Each unique kernel name id is classified once (a regex pass per rule), so the cost
// is O(kernels + unique names x rules x name length).
#include "core/TraceData.h"
#include "metrics/CategoryRules.h"

namespace cnp {

void categoriseKernels(TraceData& trace, const CategoryRules& rules);

} // namespace cnp
