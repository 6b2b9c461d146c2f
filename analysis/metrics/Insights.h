#pragma once
// Insights: findings a performance engineer would act on, each with a severity, a one-paragraph
// explanation and evidence (rank, step, time range, kernels) the GUI can jump to. Computed from the
// run's summaries and metadata only (docs/metrics.md, "Insights"). O(ranks + steps + stored gaps +
// streams).
#include "core/RunSnapshot.h"
#include "core/TraceData.h"

#include <string>
#include <vector>

namespace cnp {

enum class InsightSeverity { Info = 0, Warning = 1, Critical = 2 };
const char* toString(InsightSeverity s);

struct InsightEvidence {
    std::int32_t rank = -1;      // -1 = whole run
    std::int32_t stepIndex = -1; // -1 = not tied to a step
    Ns start = -1, end = -1;     // -1 = no time range
    std::vector<std::string> kernels;
    std::string detail; // one short line, e.g. "launch-bound, 12 launches during the gap"
};

struct Insight {
    std::string id; // stable identifier, e.g. "idle-gaps", "release-notes.nccl-socket-ifname"
    InsightSeverity severity = InsightSeverity::Info;
    std::string title; // one line
    std::string explanation;
    double value = 0; // the measured quantity the check thresholds (a fraction, a count...)
    std::vector<InsightEvidence> evidence; // at most InsightOptions::maxEvidence items, the most telling
    // How many items the evidence was chosen from (gaps, steps, kernels...); evidence.size() when none was
    // left out. Counts and totals in the title and value always cover all of them.
    std::size_t evidenceTotal = 0;
};

struct InsightOptions {
    Ns idleGapNs = 100'000; // gaps at least this long are reported (>= 10 µs: shorter are not stored)
    double idleShareWarning = 0.05; // share of the GPU window lost in such gaps -> warning (x3 -> critical)
    double blockingSyncShare =
        0.05; // share of the step time the GPU idles behind blocking syncs -> warning (x3)
    double copyShareWarning = 0.05;       // share of the GPU window in sync/pageable copies -> warning (x3)
    double exposedCommShare = 0.10;       // exposed communication / step window -> warning
    double lowOverlap = 0.30;             // overlap / communication below this -> warning ...
    double minCommShareForOverlap = 0.05; // ... when communication is at least this share of the window
    double shortKernelShare = 0.30;       // kernels shorter than their launch call / launched kernels
    std::int64_t minKernelsForLaunchCheck = 100;
    double stragglerSkew = 0.05; // (max - min rank window) / step time -> warning
    // Compute on a stream other than the rank's main compute stream / the rank's GPU window -> info (x3
    // -> warning).
    double sideStreamComputeShare = 0.05;
    std::size_t maxEvidence = 8;
};

// Insights of one run, most severe first. Reads the snapshot's ranks, steps, kernels, gaps, syncs and
// hosts (the release-note checks), and rankKernels of the ranks shortKernelRanks() names (evidence).
// requests/InsightsRequest.h reads the snapshot from a workspace.
std::vector<Insight> computeInsights(const RunSnapshot& run, const InsightOptions& options = {});
// The ranks whose own kernel statistics the short-kernel insight lists as evidence. O(ranks).
std::vector<std::int32_t> shortKernelRanks(const std::vector<RankSummary>& ranks,
                                           const InsightOptions& options);

} // namespace cnp
