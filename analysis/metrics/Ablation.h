#pragma once
// Ablation across configurations (docs/metrics.md, "Ablation"): per configuration the median step time
// with its bootstrap CI, throughput, MFU, speedup vs the baseline and gain vs the previous configuration
// (each with a CI and a significance flag), mean per-step breakdown and exclusive time, and the
// attribution of the step-time delta to categories and idle, summing exactly to the total delta.
// Pure: computes from the runs' snapshots (requests/AblationRequest.h reads them from a workspace).
// O(runs x steps) plus the bootstrap (O(resamples x steps log steps)).
#include "core/CategoryOrder.h"
#include "core/RunSnapshot.h"
#include "core/TraceData.h"
#include "core/WorkspaceSettings.h"
#include "metrics/AblationStudies.h"
#include "metrics/Bootstrap.h"
#include "metrics/MfuInputs.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

// Which figure the ablation compares: the traced step windows, or the step time the workloads' logs
// reported (run attributes log.*, docs/schema.md). Breakdown and attribution always come from the trace.
enum class AblationSource { Trace, Log };
const char* toString(AblationSource s);
// "trace" / "log"; nullopt for anything else.
std::optional<AblationSource> ablationSourceFrom(const std::string& s);
// The workspace's choice (meta key `ablation_source`), Trace when unset or not a source.
AblationSource ablationSourceOf(const WorkspaceSettings& settings);

// Below this many samples per configuration (steps of all its runs pooled; runs when comparing log
// figures) a bootstrap CI is not reported: the figure stands without one (docs/metrics.md, "Ablation").
constexpr std::size_t kMinSamplesForCi = 5;

struct AblationOptions {
    // The study compared (metrics/AblationStudies.h): empty, the newest study holding the configurations
    // `order` and `baseline` name, else the newest study (that of the most recently ingested run).
    std::string study;
    // Every run of the workspace, whatever its study: an explicit request, warned about ("mixed-studies").
    bool allStudies = false;
    std::string baseline;                 // empty: the first configuration in order
    std::vector<std::string> order;       // empty: the workspace's plan order; else exactly these configs
    std::optional<AblationSource> source; // nullopt: the workspace's choice
    double tokensPerStep = 0;             // > 0 overrides the runs' metadata
    // > 0 overrides the workspace's MFU inputs and the runs' metadata (resolveMfuBasis):
    double flopsPerStep = 0; // model FLOPs per step, whole job
    // Model FLOPs of one token (whole model); x the configuration's tokens per step it is the option's
    // FLOPs per step where flopsPerStep is 0 (as the workbench's FLOPs/token field, for one computation
    // only; unknown tokens per step leave the FLOPs to the next source).
    double flopsPerToken = 0;
    double peakFlops = 0;   // peak FLOP/s of one GPU
    int skipFirstSteps = 0; // steps dropped at the start of every run (warm-up)
    int resamples = Bootstrap::kDefaultResamples;
    std::uint64_t seed = Bootstrap::kDefaultSeed;
};

struct RatioWithCi {
    double value = 0;
    ConfidenceInterval ci95;  // [value, value] when !hasCi
    bool significant = false; // the CI exists and excludes 1
    bool hasCi = false;       // false: too few samples on either side
};

// The figures a run's log reported, averaged over the configuration's runs that have them.
struct LogFigures {
    std::int64_t runs = 0;      // runs with a log figure
    double throughput = 0;      // median over those runs, in `throughputUnit` (0 = none reported)
    std::string throughputUnit; // tokens/s, samples/s or steps/s
    Ns medianStepNs = 0;        // median over runs of their step time (0 = not derivable)
    std::string source;         // "log", "user" or "log+user"
};

// How much a traced step may overstate the unprofiled one (docs/metrics.md, "Profiler overhead").
struct ProfilerOverhead {
    double launchBoundShare = 0; // launch-bound GPU idle inside the counted steps / their total time
    std::string profiler;        // the runs' source formats, e.g. "kineto" (torch.profiler), "cnpt"
    double cpuRangesPerMs =
        0; // CPU ranges (ops, annotations) per ms of GPU window, a proxy of CPU op density
};

// Where an unprofiled speedup can lie given the traced one (docs/metrics.md, "Profiler overhead"): each
// unprofiled step lies between (1 - its launch-bound share) x the traced step and the traced step, so the
// speedup s = baseline / config lies in [s (1 - b), s / (1 - c)] for the baseline's share b and the
// configuration's share c. Neither end is more likely than the other; no point inside is "the" correction.
struct SpeedupRange {
    double low = 0, high = 0;
};
// The range above; `configShare` is capped at 0.99 so `high` stays finite.
SpeedupRange unprofiledSpeedupRange(double tracedSpeedup, double baselineShare, double configShare);

// A caveat the ablation prints beside its figures.
struct AblationWarning {
    std::string config; // empty: the whole ablation
    std::string kind;   // "profiler-overhead", "too-few-samples", "log-vs-trace", "mixed-studies"
    std::string message;
    // For a profiler-overhead caveat on a speedup vs the baseline: the range the unprofiled speedup lies
    // in (nullopt when not a speedup caveat).
    std::optional<SpeedupRange> speedupRange;
};

struct AblationConfig {
    std::string config;
    std::vector<std::string> runs;
    std::vector<RunId> runIds;                   // the stored ids of `runs`, in the same order
    std::vector<Ns> stepTimesNs;                 // every step of every run (multi-rank: max over ranks)
    std::vector<std::vector<Ns>> stepTimesByRun; // the same, one vector per run (in `runs` order)
    Ns medianStepNs = 0;                         // of the compared figure (source), rounded to the nearest ns
    bool hasCi = false;            // false: fewer than kMinSamplesForCi samples; ciLoNs == ciHiNs == median
    std::string ciMissingReason;   // why there is no CI, e.g. "too few steps (3 < 5)"
    Ns ciLoNs = 0, ciHiNs = 0;     // 95% bootstrap CI of the median
    Ns tracedMedianStepNs = 0;     // median of the traced step windows, whatever the source
    std::optional<LogFigures> log; // nullopt: no run of the configuration has a log figure
    ProfilerOverhead overhead;
    Ns meanStepNs = 0; // rounded mean; == sum of exclusiveNs and of the breakdown parts
    double throughput = 0;
    double throughputCiLo = 0, throughputCiHi = 0; // 95% CI: the step-time CI mapped through 1/x
    std::string throughputUnit;                    // "tokens/s" or "steps/s"
    std::optional<double> mfu;                     // fraction of peak, when FLOPs per step and peak are known
    MfuBasis mfuBasis;                             // the FLOPs per step and peak `mfu` rests on
    std::int32_t worldSize = 1;
    RatioWithCi speedupVsBaseline;
    std::optional<RatioWithCi> gainVsPrevious;          // nullopt for the first configuration
    BreakdownNs breakdownMeanNs;                        // per-step mean, parts sum to meanStepNs
    ExclusiveNs exclusiveMeanNs;                        // per-step mean, sums to meanStepNs
    std::optional<ExclusiveNs> attributionVsPreviousNs; // per category + idle; sums to total
    Ns attributionTotalNs = 0;                          // meanStepNs - previous meanStepNs
};

struct AblationResult {
    std::string study;                  // the study compared; empty when allStudies mixed them
    std::vector<AblationStudy> studies; // every study of the workspace, newest first
    std::string baseline;
    AblationSource source = AblationSource::Trace;
    std::vector<AblationConfig> configs;
    std::vector<std::string> categories; // exclusive categories in priority order, "idle" last
    std::vector<std::string> notInPlan;  // configurations with runs that the plan order does not list
    std::vector<AblationWarning> warnings;
};

// One traced step as the ablation counts it: its time (multi-rank: the slowest rank's window), the
// launch-bound idle inside it, and the breakdown and exclusive time of the rank that defines it.
struct AblationStepSample {
    Ns time = 0;
    Ns launchBoundNs = 0;
    BreakdownNs breakdown;
    ExclusiveNs exclusive;
};

// What one traced run's summaries reduce to for the ablation, before warm-up steps are skipped.
struct AblationRunSamples {
    std::vector<AblationStepSample> steps; // multi-rank steps in index order
    bool wholeTrace = false;    // no step markers: the one sample is the longest rank window (never skipped)
    std::int64_t cpuRanges = 0; // over ranks
    Ns windowNs = 0;            // sum over ranks of the whole-trace GPU window
};

// From a snapshot with ranks and steps (their launch-bound idle precomputed at ingest).
// O(ranks + steps log steps).
AblationRunSamples ablationSamplesOf(const RunSnapshot& run);

// One run as the ablation sees it: its record, its attributes (log.* figures) and its samples (empty for
// an untraced run and for a run of a configuration not compared).
struct AblationRun {
    RunRecord run;
    std::map<std::string, std::string> attributes;
    AblationRunSamples samples;
};

struct AblationInputs {
    WorkspaceSettings settings;
    CategoryOrder categories;      // of the request's category rules
    std::vector<AblationRun> runs; // in the workspace's run order (plan order)
};

// What an ablation compares: the study and, in order, the configurations (the options' order, else the
// study's part of the plan order, else every configuration of the study): a request reads samples of
// `runs` of those configurations only. Throws as computeAblation does.
struct AblationSelection {
    std::vector<AblationStudy> studies; // every study, newest first
    std::string study;                  // the one compared; empty when allStudies
    std::vector<RunId> runs;            // the runs of that study (every run when allStudies)
    std::vector<std::string> configs;   // the configurations compared, in order
};
AblationSelection selectAblation(const WorkspaceSettings& settings, const std::vector<AblationRun>& runs,
                                 const AblationOptions& options);

// Throws InputError when a requested configuration or the baseline has no runs in the study, when the
// requested study does not exist or the named configurations are in different studies, when the
// workspace has no runs at all, when the configurations' throughputs are in different units, or when the log
// source is chosen and a configuration has no log figure to compare.
AblationResult computeAblation(const AblationInputs& inputs, const AblationOptions& options = {});

// Integer apportionment used for exact partitions of means: returns q with sum(q) == round(sum(sums)/n)
// and |q[i] - sums[i]/n| < 1 (largest-remainder rounding). Negative sums are allowed.
std::vector<Ns> apportionMeans(const std::vector<Ns>& sums, std::int64_t n);

} // namespace cnp
