#pragma once
// The longest path through a window's dependency graph (metrics/DependencyGraph.h) and its breakdown by
// kind: why the window lasts what it lasts (docs/metrics.md, "Critical path"). O(V + E).
#include "metrics/DependencyGraph.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

// One edge of the path, in time order: [start, end] is where the edge's time lies on the measured
// timeline (the length of a binding edge; a 0-weight edge has start == end or orders only).
struct PathSegment {
    Ns start = 0, end = 0;
    Ns weight = 0;
    PathKind kind = PathKind::Cpu;
    std::int32_t cpuEvent = -1, gpuEvent = -1; // as in GraphEdge
    bool onGpu = false; // the edge leads into a GPU activity's point: its time lies on that stream
    std::int32_t waitedOnRank = -1; // CollectiveWait: the rank that arrived last
    std::int32_t collective = -1;   // Communication: ordinal of the collective among the rank's in the window
    Ns arrival = 0;                 // Communication: the collective kernel's start on this rank
};

struct CriticalPathResult {
    Ns length = 0;         // the longest path, ns (== end - window start for the measured graph)
    Ns start = 0, end = 0; // the window's start and the time of the path's last point
    std::array<Ns, kPathKindCount> byKind{}; // the path's time per PathKind, summing to `length`
    std::vector<PathSegment> segments;       // in time order; only edges of non-zero weight
    std::int32_t edgesOnPath = 0;            // every edge of the path, 0-weight ones included
    std::int32_t nodesOnPath = 0;
};

class CriticalPath {
public:
    // Longest distance from the source to every node with the graph's weights, or `weights` (one per
    // edge; a negative weight removes the edge). The path ends at the node farthest from the source (ties:
    // the later measured time).
    static CriticalPathResult of(const DependencyGraph& graph);
    static CriticalPathResult of(const DependencyGraph& graph, const std::vector<Ns>& weights);
    // Only the length (no path recovery): what re-timing needs.
    static Ns lengthOf(const DependencyGraph& graph, const std::vector<Ns>& weights);

    // Numbers the path's communication segments: `ordinalOf[g]` is GPU activity g's ordinal among the
    // window's communication kernels by start (-1 for others).
    static void numberCollectives(CriticalPathResult& path, const std::vector<std::int32_t>& ordinalOf,
                                  const StepEvents& events);
    // Moves the part of each numbered collective on the path that waited for the last rank into
    // CollectiveWait: `lastArrival[k]` is the latest start of the k-th collective over the ranks and
    // `lastRank[k]` that rank ("a collective cannot end before its last rank arrives"). byKind keeps
    // summing to length.
    static void splitCollectiveWaits(CriticalPathResult& path, const std::vector<Ns>& lastArrival,
                                     const std::vector<std::int32_t>& lastRank);
};

} // namespace cnp
