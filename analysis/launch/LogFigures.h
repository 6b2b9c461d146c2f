#pragma once
// The speed a workload reports in its own log, found with the plan's regular expression (RE2: linear time
// on hostile logs; one capture group, the number) and summarised as the median over every match.
#include "plan/Plan.h"

#include <optional>
#include <string>

namespace cnp::launch {

struct LogFigures {
    std::optional<double> throughput;      // median, in `throughputUnit`
    std::string throughputUnit;            // tokens/s, samples/s or steps/s
    std::optional<double> stepTimeSeconds; // median, seconds
    int matches = 0;
};

// Throws InputError naming `planPath` when the regex does not compile, lacks a capture group, or the unit
// is none of tokens/s, samples/s, steps/s, s/step, ms/step. Lines whose capture is not a number are skipped.
// O(log size) per line with RE2; the median sorts the matches.
LogFigures parseLogFigures(const std::string& logText, const plan::LogMetric& metric,
                           const std::string& planPath);

} // namespace cnp::launch
