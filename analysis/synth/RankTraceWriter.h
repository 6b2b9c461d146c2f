#pragma once
// Writes one simulated rank as the collector would (CnptWriter, the records RecordTranslator emits):
// header, device and context, clock pairs, runtime launch calls with correlation ids, kernels, memcpys
// and NVTX ranges. Callers give times on the study's true clock (Unix ns); this class converts them to
// the rank's raw CUPTI clock (true - clockOffsetNs, plus a planted drift), so ingest must undo the offset
// from the clock pairs.
#include "synth/SplitMix64.h"

#include "CnptWriter.h"
#include "core/TraceData.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cnp::synth {

struct RankIdentity {
    int rank = 0, localRank = 0, node = 0, worldSize = 1;
    std::int64_t pid = 0;
    Ns clockOffsetNs = 0; // realtime - CUPTI time on this rank
    // A planted drift of the host's oscillator (CUPTI and realtime clock alike): at true time t both read
    // driftPpm x 1e-6 x (t - driftOriginNs) late. 0 = none (then no time changes).
    double driftPpm = 0;
    Ns driftOriginNs = 0;
};

class RankTraceWriter {
public:
    // Opens `path` and writes the header (`header` plus the rank's identity keys), device and context.
    // Throws InputError naming `path` when it cannot be created.
    RankTraceWriter(const std::string& path, const RankIdentity& id,
                    const std::vector<std::pair<std::string, std::string>>& header,
                    const std::string& gpuName, std::uint64_t gpuMemoryBytes, SplitMix64& rng);

    std::uint32_t intern(const std::string& s) { return out_.intern(s); }
    std::uint32_t nextCorrelation() { return ++correlation_; }

    // A runtime API call [start, end] on thread `tid`; returns nothing, the caller keeps `correlation`.
    void api(Ns start, Ns end, std::uint32_t correlation, std::uint32_t tid, std::uint32_t name,
             std::uint32_t cbid);
    void kernel(Ns start, Ns end, std::uint32_t correlation, std::uint32_t stream, std::uint32_t name,
                int gridX, int blockX);
    void memcpyHtoD(Ns start, Ns end, std::uint32_t correlation, std::uint32_t stream, std::uint64_t bytes);
    // NVTX push/pop on thread `tid`; returns the range id for rangeEnd.
    std::uint32_t rangeStart(Ns at, std::uint32_t tid, std::uint32_t name);
    void rangeEnd(Ns at, std::uint32_t id, std::uint32_t tid);
    // One clock reading at true time `at`: the bracket is split at random around the true instant, so the
    // importer's offset estimate carries a real (bounded) error.
    // `realtimeErrorNs`: how late the host's realtime clock reads (a planted clock error; 0 = exact), on
    // top of the planted drift, which both clocks share.
    void clockPair(Ns at, Ns bracketNs, SplitMix64& rng, Ns realtimeErrorNs = 0);

    // Writes pending records as whole chunks (memory stays bounded per step).
    void flush() { out_.flush(); }
    // Flushes, writes the End chunk and closes; throws InputError on any write error.
    void finish(Ns endRealtimeNs);
    std::uint64_t records() const { return out_.recordsWritten(); }

private:
    // How late the host's oscillator reads at true time `trueNs` (the planted drift), ns.
    Ns drifted(Ns trueNs) const {
        return id_.driftPpm == 0
                   ? 0
                   : static_cast<Ns>(
                         std::llround(id_.driftPpm * 1e-6 * static_cast<double>(trueNs - id_.driftOriginNs)));
    }
    std::uint64_t raw(Ns trueNs) const {
        return static_cast<std::uint64_t>(trueNs + drifted(trueNs) - id_.clockOffsetNs);
    }
    void check() const;

    cnpt::CnptWriter out_;
    RankIdentity id_;
    std::uint32_t correlation_ = 0, markerId_ = 0;
    std::uint32_t device_ = 0, context_ = 1;
};

} // namespace cnp::synth
