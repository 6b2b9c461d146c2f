#pragma once
// Run diff A vs B (docs/metrics.md, "Run diff"): kernels matched by exact name, or by normalised name
// (template arguments, hex hashes and numeric suffixes stripped) when `normalize` is set; per kernel
// class added / removed / faster / slower / unchanged, sorted by |delta total| descending; category-level
// deltas of kernel time; the step-time distributions of both runs. Reads summaries only:
// O(kernel names log kernel names).
#include "core/RunSnapshot.h"
#include "core/TraceData.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

struct RunDiffOptions {
    bool normalize = false;
    double unchangedFraction = 0.02;  // |delta| <= 2% of A's total ...
    Ns unchangedPerInstanceNs = 1000; // ... and <= 1 us per instance (max of the two counts)
};

struct KernelDiffRow {
    std::string name;     // the exact name, or the normalised key when normalising
    std::string category; // A's category when present, else B's
    std::int64_t countA = 0, countB = 0;
    Ns totalA = 0, totalB = 0;
    Ns delta = 0;                        // totalB - totalA
    std::string cls;                     // "added", "removed", "faster", "slower", "unchanged"
    std::int64_t namesA = 0, namesB = 0; // distinct exact names merged into this row
    // Mean time per call (ns) in A / B; nullopt when the side has no call.
    std::optional<double> meanA() const {
        return countA > 0 ? std::optional<double>(static_cast<double>(totalA) / static_cast<double>(countA))
                          : std::nullopt;
    }
    std::optional<double> meanB() const {
        return countB > 0 ? std::optional<double>(static_cast<double>(totalB) / static_cast<double>(countB))
                          : std::nullopt;
    }
    // Per-call ratio B / A (> 1: each call slower in B); nullopt unless both sides have calls.
    std::optional<double> perCallRatio() const {
        const auto a = meanA(), b = meanB();
        return a && b && *a > 0 ? std::optional<double>(*b / *a) : std::nullopt;
    }
};

struct CategoryDiffRow {
    std::string category;
    Ns totalA = 0, totalB = 0, delta = 0;
};

// Five-number summary of a step-time distribution (quartiles by linear interpolation between order
// statistics, the R-7 / numpy default). All zero for an empty distribution.
struct StepDistribution {
    std::size_t count = 0;
    double minNs = 0, q1Ns = 0, medianNs = 0, q3Ns = 0, maxNs = 0;
};
StepDistribution summariseSteps(std::vector<Ns> stepTimes);

struct RunDiffResult {
    std::string runA, runB;
    std::int64_t added = 0, removed = 0, faster = 0, slower = 0, unchanged = 0;
    std::vector<KernelDiffRow> kernels;
    std::vector<CategoryDiffRow> categories; // by |delta| descending
    std::vector<Ns> stepTimesA, stepTimesB;  // multi-rank step times (max over ranks)
    StepDistribution stepsA, stepsB;         // their box-plot summaries
    Ns totalA = 0, totalB = 0;               // total kernel time of each run
};

// Strips template arguments (<...>, nested), parenthesised parameter lists, 0x/long hex hashes and
// numeric suffixes: "triton_poi_fused_add_3" and "triton_poi_fused_add_7" both become "triton_poi_fused_add".
std::string normaliseKernelName(std::string_view name);

// The class of one kernel's change, on totals or on per-step means alike: "added" (no call in A),
// "removed" (none in B), "unchanged" (|B - A| <= unchangedFraction x A and <= unchangedPerInstanceNs x
// max(countA, countB)), else "faster" or "slower".
const char* kernelChangeClass(double countA, double countB, double totalA, double totalB,
                              const RunDiffOptions& options);

// Reads each snapshot's kernels and steps (requests/RunDiffRequest.h reads them by run name).
RunDiffResult diffRuns(const RunSnapshot& a, const RunSnapshot& b, const RunDiffOptions& options = {});

} // namespace cnp
