#pragma once
// One rank's communication kernels as the store reads them (store/CollectiveKernelQueries.h) and the
// collective matcher pairs them (metrics/CollectiveMatcher.h). Times in integer ns.
#include "core/TraceData.h"

#include <cstdint>
#include <vector>

namespace cnp {

// One communication kernel of one rank as the matcher reads it.
struct CollectiveKernel {
    std::int64_t stream = 0; // the communicator's stream (its key when no process group is known)
    Ns start = 0, end = 0;
    std::uint32_t nameIndex = 0; // into the names table that comes with them
    std::int64_t bytes = 0;      // nccl-tests' "size" of the operation (see docs/metrics.md); 0 = unknown
    std::int64_t id = -1;        // the stored kernel row, -1 when none
    // From the call's stored arguments (core/CollectiveArgs.h), where the trace has them:
    std::uint32_t group = 0;    // its process group's name: index + 1 into the names table, 0 = unknown
    std::uint32_t argOp = 0;    // the profiler's collective name: index + 1 into the names table, 0 = none
    std::int32_t groupSize = 0; // ranks in its process group, 0 = unknown
    // How much of [start, end) the rank's compute (non-communication) kernels cover, on any stream: the
    // overlapped part; the rest is exposed (metrics/CommunicationOverlap.h). 0 when not computed.
    Ns overlappedNs = 0;
};

// One rank's communication kernels, in any order (the matcher sorts them per stream by start).
struct RankCollectives {
    std::int32_t rank = 0;
    std::vector<CollectiveKernel> kernels;
};

} // namespace cnp
