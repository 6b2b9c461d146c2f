#pragma once
// Collectives matched across ranks (docs/metrics.md, "Collectives"): each rank's communication kernels,
// grouped by communicator — the process group their stored arguments name, else the stream they run on —
// and paired across ranks by their order in it: the k-th kernel of a communicator on every rank that has
// it is the k-th call of that communicator, as NCCL requires every member to issue a communicator's
// collectives in the same order.
// Per call: every member's arrival (kernel start) and departure (kernel end), the wait until the last
// member arrived, the transfer after that, and, where the message size is known, algorithm and bus
// bandwidth with nccl-tests' per-operation factors. Times in integer ns on the run's aligned clock.
// Pure: no SQLite. O(total kernels + total calls x log ranks); the input is read rank by rank.
#include "core/CollectiveKernels.h"
#include "core/TraceData.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

enum class CollectiveOp : std::uint8_t {
    AllReduce,
    AllGather,
    ReduceScatter,
    Broadcast,
    Reduce,
    AllToAll,
    SendRecv,
    Unknown
};

// "all_reduce", "all_gather", ... ("unknown" for Unknown).
std::string_view collectiveOpName(CollectiveOp op);
// The operation a communication kernel performs, from its name (NCCL's ncclKernel_AllReduce_...,
// ncclDevKernel_ReduceScatter_..., RCCL/ACCL spellings, PyTorch's "nccl:all_reduce"); Unknown otherwise.
CollectiveOp collectiveOpOfKernel(std::string_view kernelName);
// nccl-tests' bus bandwidth factor for `op` among `ranks` members (doc/PERFORMANCE.md): all-reduce
// 2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n; broadcast, reduce and send/recv 1.
// nullopt for Unknown or fewer than 1 rank.
std::optional<double> busBandwidthFactor(CollectiveOp op, int ranks);

// One rank's part in one call.
struct CallMember {
    std::int32_t rank = 0;
    Ns arrival = 0, departure = 0; // its kernel's start and end
    Ns waitNs = 0;                 // lastArrival - arrival (>= 0)
    Ns transferNs = 0;             // departure - lastArrival, 0 when it departed before (clock error)
    std::int64_t kernelId = -1;
    Ns overlappedNs = 0; // its kernel's part under the rank's compute kernels (CollectiveKernel)
};

struct CollectiveCall {
    std::int64_t stream = 0;    // the last-arriving rank's kernel's stream
    std::uint32_t group = 0;    // process group name: index + 1 into CollectiveMatch::names, 0 = by stream
    std::int32_t groupSize = 0; // ranks in the process group from the arguments, 0 = unknown
    std::int32_t sequence = 0;  // position on its communicator, from 0
    CollectiveOp op = CollectiveOp::Unknown;
    std::uint32_t nameIndex = 0; // the last-arriving rank's kernel name, into CollectiveMatch::names
    std::int32_t step = -1;      // the last-arriving rank's step containing lastArrival, -1 when none
    Ns firstArrival = 0, lastArrival = 0;
    std::int32_t lastRank = 0;
    Ns medianArrival = 0;
    Ns waitNs = 0;          // lastArrival - firstArrival: how long the earliest member waited
    Ns totalWaitNs = 0;     // sum of every member's wait
    Ns transferNs = 0;      // median over members of their transfer
    std::int64_t bytes = 0; // 0 = unknown
    // bytes / transferNs (GB/s) and x busBandwidthFactor with n = groupSize (memberCount when unknown)
    std::optional<double> algBwGBs, busBwGBs;
    std::size_t firstMember = 0, memberCount = 0; // its members: CollectiveMatch::members[first, first+count)
};

// A rank's steps as [start, end) windows, for naming a call's step.
struct RankStepWindows {
    std::int32_t rank = 0;
    std::vector<std::pair<Ns, Ns>> windows; // step i: windows[i], in time order
};

// What the matcher reads: the kernel names once, and every rank's kernels naming them by index.
struct CollectiveInput {
    std::vector<std::string> names;
    std::vector<RankCollectives> ranks;
    std::vector<RankStepWindows> steps; // optional, any rank order: names each call's step
};

struct CollectiveMatch {
    std::vector<std::string> names;          // CollectiveInput::names
    std::vector<CollectiveCall> calls;       // by (communicator, sequence)
    std::vector<CallMember> members;         // of every call, each call's by rank
    std::int32_t ranks = 0;                  // ranks that had communication kernels
    std::int64_t unmatchedKernels = 0;       // kernels past the shortest member's count on their stream
    std::vector<std::int64_t> unevenStreams; // streams whose members have different kernel counts
    std::int64_t callsByGroup = 0;           // calls matched by process group (the rest by stream)

    std::string_view nameOf(const CollectiveCall& c) const {
        return c.nameIndex < names.size() ? std::string_view(names[c.nameIndex]) : std::string_view();
    }
    // The call's process group name; empty when it was matched by stream.
    std::string_view groupOf(const CollectiveCall& c) const {
        return c.group > 0 && c.group <= names.size() ? std::string_view(names[c.group - 1])
                                                      : std::string_view();
    }
};

// One step's collectives: the sums over its calls (call.step == step) of their wait and transfer.
struct CollectiveStepTotals {
    std::int32_t step = 0;
    std::int64_t calls = 0;
    Ns waitNs = 0, transferNs = 0;
};

// Matches the calls. Ranks without kernels are left out; a stream present on one rank only forms calls of
// one member. A kernel whose nameIndex is out of range is named "".
CollectiveMatch matchCollectives(CollectiveInput input);
// Per step, in step order; calls without a step are left out. O(calls).
std::vector<CollectiveStepTotals> collectiveStepTotals(const CollectiveMatch& match);

} // namespace cnp
