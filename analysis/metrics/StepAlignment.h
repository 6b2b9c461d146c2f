#pragma once
// The timeline diff of one step of run A against one step of run B (docs/metrics.md, "Step diff"): the GPU
// activities (kernels, memcpys, memsets) of each step, streams paired, each stream pair's activities
// aligned by name (the longest common subsequence of their names in start order, metrics/
// SequenceAlignment.h), so an activity of both is matched, one of B only is added and one of A only is
// removed. Per matched pair its durations and start offsets from each step's start; per stream the
// cumulative time shift (B's offset − A's offset) along the step; in all, where the step's time went.
// Time O(S log S + Σ (n+m)·D) over stream pairs (D: the edits of the pair); memory O(n + m).
#include "core/StepEvents.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

struct StepAlignmentOptions {
    bool normalize = false; // match normalised names (normaliseKernelName, metrics/RunDiff.h)
    std::int64_t maxWork = std::int64_t{1} << 30; // per stream pair (SequenceAlignment's budget)
};

enum class AlignKind : std::uint8_t { Matched, Added, Removed };
const char* toString(AlignKind k); // "matched", "added", "removed"

// One item of a lane: indices into StepAlignment::a / ::b (-1 on the side without it).
struct AlignedItem {
    AlignKind kind = AlignKind::Matched;
    std::int32_t a = -1, b = -1;
};

// The cumulative shift at one matched pair: its start offsets from each step's start and their difference.
struct ShiftPoint {
    Ns atA = 0, atB = 0;
    Ns shift = 0; // atB − atA
};

// One lane: a stream of A paired with a stream of B (or one side alone: every item added or removed).
struct AlignedStream {
    std::int32_t deviceA = -1, deviceB = -1;
    std::int64_t streamA = -1, streamB = -1; // -1: the side has no such stream
    bool pairedById = false;                 // same (device, stream) in both; else by order of first use
    std::vector<AlignedItem> items;          // by A's start for matched and removed, B's for added, merged
    std::vector<ShiftPoint> shift;           // one per matched pair, in order
    std::int32_t matched = 0, added = 0, removed = 0; // counts of items
    Ns busyA = 0, busyB = 0;                          // summed durations on the stream
    Ns slower = 0, faster = 0;         // Σ max(0, durB − durA), Σ min(0, durB − durA) of matched pairs
    Ns addedTime = 0, removedTime = 0; // Σ durations of added (B) and removed (A) items
    Ns endShift = 0;                   // (B's last end − B's start) − (A's last end − A's start)
    bool truncated = false;            // the alignment's budget ran out (SequenceAlignment.h)
};

// Where the step's GPU span changed: spanB − spanA = slower + faster + added − removed + idle.
struct AlignmentTotals {
    Ns spanA = 0, spanB = 0; // last end − first start of the step's activities (0 when none)
    std::int32_t matched = 0, added = 0, removed = 0; // counts of items
    Ns slower = 0, faster = 0, addedTime = 0, removedTime = 0;
    // The rest: with one stream, the change of idle time between activities; with several, also the change
    // of their overlap.
    Ns idle = 0;
};

// A jump of a lane's cumulative shift: from the previous matched pair `previous` (or the step's start,
// shift 0) to the matched pair `item`. It is the previous pair's duration change plus the added minus the
// removed work between them plus the change of the gaps.
struct ShiftJump {
    std::int32_t stream = 0;    // index in StepAlignment::streams
    std::int32_t item = 0;      // index of the matched item in the lane's items
    std::int32_t previous = -1; // index of the previous matched item; -1: the step's start
    Ns before = 0, after = 0;
    std::int32_t added = 0, removed = 0;
    Ns addedTime = 0, removedTime = 0;
};

class StepAlignment {
public:
    std::vector<StepGpuEvent> a, b; // each step's activities, sorted by (device, stream, start, end, name)
    Ns startA = 0, startB = 0;      // each step's first activity start (its GPU window start)
    std::vector<AlignedStream> streams;
    AlignmentTotals totals;

    // Aligns two steps' GPU activities (in any order). Names are compared as given, or normalised.
    static StepAlignment align(std::vector<StepGpuEvent> a, std::vector<StepGpuEvent> b,
                               const StepAlignmentOptions& options = {});

    Ns durationA(const AlignedItem& i) const; // 0 when the item has no A side
    Ns durationB(const AlignedItem& i) const;
    Ns offsetA(const AlignedItem& i) const; // start − startA; 0 when no A side
    Ns offsetB(const AlignedItem& i) const;
    const std::string& name(const AlignedItem& i) const; // A's name when present, else B's

    // The `n` largest jumps of the lanes' shifts by |after − before| (ties by lane, item), largest first.
    // O(items + jumps log n).
    std::vector<ShiftJump> largestJumps(std::size_t n) const;
};

} // namespace cnp
