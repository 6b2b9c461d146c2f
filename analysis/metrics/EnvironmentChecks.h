#pragma once
// Environment checks from the training image's release notes (docs/metrics.md, "Insights", release-note
// checks), evaluated on one run's metadata with a verdict each: passed, failed (with the insight to
// raise) or not checked (the metadata the check needs was not recorded). Insights raises the failures;
// the report prints every verdict. O(env entries + ranks).
#include "core/RunSnapshot.h"
#include "metrics/Insights.h"

#include <optional>
#include <string>
#include <vector>

namespace cnp {

enum class CheckVerdict { Passed, Failed, NotChecked };
const char* toString(CheckVerdict v); // "passed", "failed", "not checked"

struct EnvironmentCheck {
    std::string id;          // the insight id, e.g. "release-notes.driver-version"
    std::string requirement; // what the release notes require, one line
    CheckVerdict verdict = CheckVerdict::NotChecked;
    std::string observed;           // what the run recorded, or why it was not checked
    std::optional<Insight> failure; // set exactly when verdict == Failed
};

// The checks in a fixed order (NCCL interface, driver version, DeepSpeed prefetch bucket). Reads the
// snapshot's run record and mostRanksOnOneHost (RunSnapshotParts::hosts).
std::vector<EnvironmentCheck> checkEnvironment(const RunSnapshot& run);

} // namespace cnp
