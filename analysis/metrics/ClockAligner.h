#pragma once
// Clock alignment checked by the collectives themselves (docs/metrics.md, "Clock alignment"): every member
// of a collective leaves it within the transfer's skew of the others (the data is complete for all at
// once), so on aligned clocks the ranks of two hosts depart together. Per host against the reference host
// (the lowest rank's): per call both hosts' median departure, their difference fitted over time as
// offset + drift x (t - t0) by least squares; the fit is what the stored (clock-pair aligned) times still
// carry, its residual what remains once it is removed. Pure; O(members + calls per host).
#include "metrics/CollectiveMatcher.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct HostClockEstimate {
    std::string host;
    std::int32_t ranks = 0;
    std::int64_t calls = 0;    // calls shared with the reference host
    Ns offsetNs = 0;           // host's clock - the reference's at t0 (its departures are this much later)
    double driftPpm = 0;       // change of that offset, ns per ms (= parts per million)
    Ns residualNs = 0;         // 95th percentile of |difference - fit| over its calls
    Ns maxAbsDifferenceNs = 0; // the largest |difference| itself: how far apart the stored clocks are
};

struct ClockAlignment {
    std::string referenceHost;
    Ns t0 = 0;                            // the first shared call's reference departure
    std::vector<HostClockEstimate> hosts; // the reference first (offset 0), then by host name
    // How well the stored times agree: the largest maxAbsDifferenceNs over hosts (0 with one host).
    Ns storedErrorNs = 0;
    // How well they would agree with each host's fit removed: the largest residual.
    Ns fittedErrorNs = 0;
};

// `hostOfRank`: (rank, host) for the run's ranks; ranks without an entry are left out. Calls with a single
// host are not used.
ClockAlignment estimateClockAlignment(const CollectiveMatch& match,
                                      const std::vector<std::pair<std::int32_t, std::string>>& hostOfRank);

} // namespace cnp
