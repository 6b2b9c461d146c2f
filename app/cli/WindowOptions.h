#pragma once
// The window options `cnp critical-path` and `cnp whatif` share: --step N, --annotation TEXT [--instance I],
// --rank R (docs/cli.md).
#include "ArgParser.h"

#include "requests/CriticalPathRequest.h"

#include <set>
#include <string>

namespace cnp::cli {

inline const std::set<std::string>& windowValueOptions() {
    static const std::set<std::string> names{"--run", "--step", "--annotation", "--instance", "--rank"};
    return names;
}

// Reads the window options of a parsed command line; UsageFailure for contradictory ones.
inline WindowChoice windowChoiceOf(const ArgParser& p) {
    WindowChoice c;
    if (auto s = p.number("--step", 0, 2147483647))
        c.step = static_cast<std::int32_t>(*s);
    if (auto r = p.number("--rank", 0, 2147483647))
        c.rank = static_cast<std::int32_t>(*r);
    c.annotation = p.value("--annotation");
    if (auto i = p.number("--instance", 0, 2147483647)) {
        if (!c.annotation)
            throw UsageFailure{"--instance needs --annotation"};
        c.instance = static_cast<std::int32_t>(*i);
    }
    c.graph.countUntracedCpuTime = !p.has("--hta-weights");
    if (c.step && c.annotation)
        throw UsageFailure{"--step and --annotation choose the window two ways: give one"};
    return c;
}

} // namespace cnp::cli
