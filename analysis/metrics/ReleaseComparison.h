#pragma once
// `cnp check`'s comparison of a candidate release against a baseline release (docs/metrics.md,
// "Regression gate"): one RegressionGate per configuration x metric on per-step values, plus the
// categories whose mean per-step exclusive time moved most, and the problems that stop a judgement
// (missing configurations, a different plan order, different world sizes). Pure. Exit code contract:
// 1 when any configuration x metric regressed, else 2 when anything could not be judged, else 0.
#include "metrics/KernelMoves.h"
#include "metrics/RegressionGate.h"
#include "metrics/ReleaseSummary.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

enum class GateMetricKind { StepTime, Throughput, Mfu, Category };

struct GateMetric {
    GateMetricKind kind = GateMetricKind::StepTime;
    std::string category;     // for Category: the exclusive category ("gemm", "idle", ...)
    std::string name() const; // "step_time", "throughput", "mfu" or the category
    bool higherIsWorse() const {
        return kind == GateMetricKind::StepTime || kind == GateMetricKind::Category;
    }
};

// "step_time", "throughput", "mfu", otherwise a category name (1 .. 256 bytes); nullopt for an empty or
// longer name.
std::optional<GateMetric> gateMetricFrom(const std::string& name);

struct CategoryMove {
    std::string category;
    double baselineMeanNs = 0, candidateMeanNs = 0; // per step
    double deltaNs() const { return candidateMeanNs - baselineMeanNs; }
};

struct ConfigCheck {
    std::string config;
    GateMetric metric;
    GateOutcome outcome;
    std::vector<std::string> baselineReleases; // the window releases pooled for this configuration
    std::vector<CategoryMove> moved;           // largest |delta| first, at most the requested count
    // The kernels whose time per step moved most between the reference release and the candidate, largest
    // |delta| first, at most the requested count; empty when a summary keeps no kernels.
    std::vector<KernelMove> kernelsMoved;
};

struct ReleaseCheck {
    std::vector<ConfigCheck> checks;   // baseline plan order x metrics order
    std::vector<std::string> problems; // what stops a judgement beyond single checks
    bool anyRegression() const;
    bool anyUnjudged() const; // a problem or a CannotJudge check
    int exitCode() const;     // 1 regression, else 2 unjudged, else 0
};

// The baseline of a configuration is a window of releases (oldest first, the last one the reference for
// plan problems and category and kernel moves): the gate pools the per-step samples of every window release
// that has the configuration (same world size), and the spread of their medians (K >= 2 releases: sd of log
// medians x sqrt(1 + 1/K)) widens the CI by the variation between releases that one run's steps cannot show.
// `windowOf`: per configuration how many of the window's last releases to use (e.g. those after its last
// change point); absent: all. Throws nothing; an empty window gives one problem.
struct BaselineWindow {
    std::vector<const ReleaseSummary*> releases; // oldest first, non-null
    std::vector<std::string> names;              // release names, aligned
    std::map<std::string, std::size_t> lastReleasesOf;
};
ReleaseCheck checkRelease(const BaselineWindow& window, const ReleaseSummary& candidate,
                          const std::vector<GateMetric>& metrics, const GateOptions& options,
                          std::size_t topMoves = 3);
// The same with a single baseline release.
ReleaseCheck checkRelease(const ReleaseSummary& baseline, const ReleaseSummary& candidate,
                          const std::vector<GateMetric>& metrics, const GateOptions& options,
                          std::size_t topMoves = 3);
// sd of log(x) over `medians` (sample sd, K - 1) x sqrt(1 + 1/K); 0 for fewer than 2 positive values.
double releaseSpread(const std::vector<double>& medians);

// The per-step values the gate compares for `metric`, one vector per run; empty with `why` set when the
// configuration cannot give them (no MFU, unknown category).
std::vector<std::vector<double>> gateSamples(const ConfigReleaseSummary& c, const GateMetric& metric,
                                             std::string& why);

} // namespace cnp
