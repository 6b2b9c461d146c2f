#pragma once
// The stated physical range of each numeric run value that a user (CLI options), a trace header (.cnpt)
// or a workspace (`runs` columns read back) can give: finite and within [0, max], 0 meaning unknown.
// Each maximum is orders of magnitude above any real job and far below overflow, so the arithmetic on
// these values (steps, MFU, chart axes) stays finite: a tokens_per_step of 1e308 once made `cnp report`
// loop forever (issue 33.2). Intake refuses (CLI, workspace) or drops with a note (trace headers) what
// is outside. O(1).
#include <string>
#include <string_view>

namespace cnp {

struct PhysicalBound {
    std::string_view what; // "tokens per step", as messages name it
    double max;            // inclusive
    std::string_view unit; // "tokens"

    // Finite and 0 <= v <= max (0 = unknown).
    bool holds(double v) const { return v >= 0 && v <= max; } // NaN fails both comparisons; inf the second
    // "0 to 1e+12 tokens"
    std::string rangeText() const;
};

namespace bounds {
inline constexpr PhysicalBound kTokensPerStep{"tokens per step", 1e12, "tokens"};
inline constexpr PhysicalBound kFlopsPerToken{"FLOPs per token", 1e16, "FLOP"};
inline constexpr PhysicalBound kFlopsPerStep{"FLOPs per step", 1e28,
                                             "FLOP"}; // kTokensPerStep x kFlopsPerToken
inline constexpr PhysicalBound kPeakFlops{"peak FLOP/s", 1e22, "FLOP/s"};
// A workload log's figures (log.throughput in tokens, samples or steps per second; log.step_time_s):
// 1e15 per second and 1e7 s (115 days) are far beyond any job, and keep 1e9 / throughput and
// step time x 1e9 within int64 nanoseconds.
inline constexpr PhysicalBound kLogThroughput{"a log throughput", 1e15, "per second"};
inline constexpr PhysicalBound kLogStepTime{"a log step time", 1e7, "s"};
} // namespace bounds

// "VALUE is outside the range of WHAT (0 to MAX UNIT)", VALUE in shortest form ("1e+308", "inf").
std::string outOfBoundText(const PhysicalBound& b, double value);

} // namespace cnp
