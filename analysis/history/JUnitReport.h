#pragma once
// `cnp check --junit FILE`: the check as a JUnit XML report a CI system reads (Jenkins, GitLab, GitHub
// test reporters): one <testsuite> "cnp check", one <testcase> per configuration x metric (classname
// "cnp.check.CONFIG", name METRIC), a <failure> for a regression, an <error> for what cannot be judged,
// and one testcase "plan" with an <error> per problem of the plans. Text is XML-escaped; characters XML 1.0
// cannot hold are replaced by '?'.
#include "metrics/ReleaseComparison.h"

#include <string>

namespace cnp {

// `baselineRelease` / `candidate`: named in the suite's properties and messages.
std::string junitReport(const ReleaseCheck& check, const std::string& baselineRelease,
                        const std::string& candidate);
// XML text escaping (&, <, >, ", ') of UTF-8 text.
std::string xmlEscape(const std::string& s);

} // namespace cnp
