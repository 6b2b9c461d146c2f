#pragma once
// Collective efficiency per operation and message size (docs/metrics.md, "Collective efficiency"): the
// matched calls (metrics/CollectiveMatcher.h) grouped by operation and by message-size bucket (powers of 4
// bytes: [4^k, 4^(k+1)), calls of unknown size in a bucket of their own), each with its calls, summed wait
// and transfer, the members' exposed and overlapped kernel time (metrics/CommunicationOverlap.h), the median
// bus bandwidth and the median of busbw / the fabric's peak — the intra-node peak for a call whose members
// are all on one host, the inter-node peak for one that spans hosts.
// Pure; O(calls x members + calls log calls).
#include "metrics/CollectiveMatcher.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

// A fabric's peak bus bandwidth in GB/s (10^9 bytes per s); 0 = unknown.
struct FabricPeak {
    double intraNodeGBs = 0; // NVLink / NVSwitch, per GPU
    double interNodeGBs = 0; // InfiniBand / RoCE, per GPU
};

struct CollectiveEfficiencyRow {
    CollectiveOp op = CollectiveOp::Unknown;
    std::int64_t bucketMinBytes = -1, bucketMaxBytes = -1; // [min, max); -1: size unknown
    std::int64_t calls = 0;
    std::int64_t interNodeCalls = 0; // of them, spanning hosts
    Ns waitNs = 0, transferNs = 0;   // sums over the calls
    // Sums over the calls' members (GPU time on every rank): their kernels' time, and of it the part the
    // same rank's compute kernels cover (CallMember::overlappedNs); the rest is exposed.
    Ns kernelNs = 0, overlappedNs = 0;
    Ns exposedNs() const { return kernelNs - overlappedNs; }
    // overlapped / kernel time; nullopt without kernel time.
    std::optional<double> overlapShare() const {
        return kernelNs > 0 ? std::optional(double(overlappedNs) / double(kernelNs)) : std::nullopt;
    }
    std::optional<double> medianBusBwGBs;  // over the calls with a busbw
    std::optional<double> medianPeakShare; // median of busbw / peak over the calls with both
};

// The lower bound 4^k of the bucket holding `bytes` (> 0): the largest power of 4 <= bytes. O(1).
std::int64_t sizeBucketOf(std::int64_t bytes);

// Rows ordered by operation, then bucket (unknown size first). `hostOfRank`: (rank, host), any order; a
// rank without an entry counts as a host of its own.
std::vector<CollectiveEfficiencyRow>
collectiveEfficiency(const CollectiveMatch& match,
                     const std::vector<std::pair<std::int32_t, std::string>>& hostOfRank,
                     const FabricPeak& peak);

} // namespace cnp
