#pragma once
// What a configuration of a study is expected to change, in the vocabulary of `cnp whatif`
// (docs/metrics.md, "Predict, then measure"): the text a plan's `expect:` mapping becomes, stored with
// the configuration's runs as run attribute `plan.expect`, and set by `cnp edit --expect CONFIG=TEXT`.
// Text: items separated by ';' (spaces around items and '=' ignored), each one of
//   comm=F                  communication kernels x F          (whatif --comm F)
//   scale.CATEGORY=F        GPU activities of CATEGORY x F     (whatif --scale CATEGORY=F)
//   scale_kernel.NAME=F     kernels whose name contains NAME   (whatif --scale-kernel NAME=F)
//   recompute=F             short for scale.recompute=F; `recompute=drop` (whatif --drop-recompute)
//   launch_overhead=remove  (whatif --no-launch-overhead)
//   remove_sync=API         a blocking call no longer waits, or `all` (whatif --remove-sync); repeatable
// with factors from 0 to 1000. Parsing is linear in the text and bounded by it; nothing is evaluated.
#include "metrics/WhatIf.h"

#include <string>
#include <string_view>

namespace cnp {

struct ExpectationParse {
    WhatIfScenario scenario;
    std::string error; // empty: parsed; else what is wrong, naming the item
    bool ok() const { return error.empty(); }
};

// The scenario of an expectation's text. An empty text (or only separators) is an error: it expects
// nothing to change.
ExpectationParse parseExpectation(std::string_view text);
// The canonical text of a scenario (parseExpectation(formatExpectation(s)) gives s back).
std::string formatExpectation(const WhatIfScenario& scenario);

inline constexpr double kMaxExpectationFactor = 1000;

} // namespace cnp
