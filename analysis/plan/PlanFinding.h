#pragma once
// One problem found in a plan by the parser (syntax, unknown keys, types, `extends`) or by the linter
// (the image's usage rules). Printed as `FILE:LINE:COL: SEVERITY: RULE: message` (docs/plans.md).
#include <string>
#include <vector>

namespace cnp::plan {

enum class Severity { Warning, Error };

struct Finding {
    std::string file;
    int line = 0; // 1-based; 0 = the file as a whole
    int column = 0;
    Severity severity = Severity::Error;
    std::string rule; // stable id: "unknown-key", "type", "nccl-socket-ifname", ...
    std::string message;
};

const char* severityName(Severity s);
// `FILE:LINE:COL: SEVERITY: RULE: message` (no newline).
std::string formatFinding(const Finding& f);
bool hasErrors(const std::vector<Finding>& findings);
// Orders by line, column, rule (stable for equal keys) and drops exact duplicates (a value inherited by
// several configurations is reported once, where it is written).
void sortFindings(std::vector<Finding>& findings);

} // namespace cnp::plan
