#include "plan/PlanFinding.h"

#include <algorithm>
#include <tuple>

namespace cnp::plan {

const char* severityName(Severity s) {
    return s == Severity::Error ? "error" : "warning";
}

std::string formatFinding(const Finding& f) {
    return f.file + ':' + std::to_string(f.line) + ':' + std::to_string(f.column) + ": " +
           severityName(f.severity) + ": " + f.rule + ": " + f.message;
}

bool hasErrors(const std::vector<Finding>& findings) {
    return std::any_of(findings.begin(), findings.end(),
                       [](const Finding& f) { return f.severity == Severity::Error; });
}

void sortFindings(std::vector<Finding>& findings) {
    auto key = [](const Finding& f) { return std::tie(f.line, f.column, f.rule, f.message); };
    std::stable_sort(findings.begin(), findings.end(),
                     [&](const Finding& a, const Finding& b) { return key(a) < key(b); });
    findings.erase(std::unique(findings.begin(), findings.end(),
                               [&](const Finding& a, const Finding& b) {
                                   return key(a) == key(b) && a.file == b.file && a.severity == b.severity;
                               }),
                   findings.end());
}

} // namespace cnp::plan
