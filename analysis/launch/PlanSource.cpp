#include "launch/PlanSource.h"

#include "core/InputError.h"
#include "plan/PlanLint.h"

namespace cnp::launch {

plan::Plan loadPlanOrThrow(const std::string& path, std::vector<plan::Finding>* warnings) {
    plan::ParseResult r = plan::lintPlanFile(path);
    if (!r.ok()) {
        std::string lines;
        for (const auto& f : r.findings)
            lines += "\n" + plan::formatFinding(f);
        throw InputError(path, "the plan has errors (cnp plan lint " + path + "):" + lines);
    }
    if (warnings)
        *warnings = r.findings;
    return std::move(r.plan);
}

} // namespace cnp::launch
