#include "launch/PlanSource.h"

#include "core/InputError.h"

namespace cnp::launch {

plan::Plan loadPlanOrThrow(const std::string& path) {
    throw InputError(path, "cannot read plans: this build has no plan parser (plan/PlanParser)");
}

} // namespace cnp::launch
