#pragma once
// Stragglers with their causes (docs/metrics.md, "Stragglers"): per rank, how often it arrived last at a
// matched collective (metrics/CollectiveMatcher.h) and by how much, and why, from evidence in its own
// summaries compared with the median rank: longer compute (which kernels), GPU idle while its host was
// busy (data loading, launch-bound), a GPU slower across all kernels, or a slow link (its transfers, not
// its waits, are longer). Pure: no SQLite. O(calls' members + ranks x kernel names x log ranks).
#include "core/RunSummaryTypes.h"
#include "metrics/CollectiveMatcher.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

enum class StragglerCause : std::uint8_t { LongerCompute, HostIdle, SlowerGpu, SlowLink };

// "longer-compute", "host-idle", "slower-gpu", "slow-link".
std::string_view stragglerCauseName(StragglerCause cause);

// One rank's own evidence, from its summaries.
struct RankEvidenceInput {
    std::int32_t rank = 0;
    std::vector<KernelStatRow> kernels; // its kernel statistics; category "communication" rows are ignored
    Ns dataWaitNs = 0;                  // its idle gaps classified waiting-on-data
    Ns launchBoundNs = 0;               // its idle gaps classified launch-bound
    Ns windowNs = 0;                    // its GPU window
};

struct KernelExcess {
    std::string name;
    Ns excessNs = 0;  // the rank's total time of the kernel - the median rank's
    double ratio = 1; // the rank's median duration / the median over ranks of their median durations
};

struct RankStraggling {
    std::int32_t rank = 0;
    std::int64_t calls = 0;     // matched calls it took part in
    std::int64_t lastCount = 0; // calls it arrived last at (calls with one member are not counted)
    double lastShare = 0;       // lastCount / calls
    Ns latenessNs = 0;          // over the calls it was last at: sum of lastArrival - medianArrival
    Ns waitNs = 0;              // its own wait summed over its calls
    Ns computeNs = 0, medianComputeNs = 0; // non-communication kernel time, and the median rank's
    double gpuTimeRatio = 1; // time-weighted median over its kernel names of its median / the ranks' median
    Ns hostIdleNs = 0, medianHostIdleNs = 0; // waiting-on-data + launch-bound idle, and the median rank's
    double transferRatio = 1;                // median over its calls of (its transfer / the call's transfer)
    Ns transferExcessNs = 0; // sum over its calls of max(0, its transfer - the call's transfer)
    std::vector<KernelExcess> slowerKernels; // largest excess first, at most 5
    std::vector<StragglerCause> causes;      // strongest first (docs/metrics.md for the thresholds)
};

struct StragglerReport {
    std::vector<RankStraggling> ranks; // most often last first, then by lateness, then rank
    std::int64_t calls = 0;            // calls with at least two members
    Ns medianWindowNs = 0;
};

// Thresholds (docs/metrics.md, "Stragglers").
struct StragglerThresholds {
    double slowerGpuRatio = 1.04; // gpuTimeRatio at or above: slower GPU
    double slowLinkRatio = 1.10;  // transferRatio at or above: slow link
    double excessShare = 0.01;    // compute or host-idle excess at or above this share of the median window
};

StragglerReport scoreStragglers(const CollectiveMatch& match, const std::vector<RankEvidenceInput>& evidence,
                                const StragglerThresholds& thresholds = {});

} // namespace cnp
