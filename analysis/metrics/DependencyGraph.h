#pragma once
// The dependency graph of one rank's window (a step): what had to finish before each event could start,
// in the manner of a critical-path-method activity network (docs/metrics.md, "Critical path").
//
// Nodes are the start and end points of every CPU event and GPU activity of the window, plus a source at
// the window's start. Edges carry what a path through them adds, in ns:
//  - CPU: consecutive points of one thread in nesting order (an event's start, its children, its end);
//    the time is the innermost open event's own (an API call launching GPU work: launch overhead), or
//    the thread's untraced CPU time between events; a second thread enters from the latest earlier point
//    of the window's main thread;
//  - GPU: an activity's duration (compute, communication or memory by category); into its start, the
//    launch call's start (launch overhead), the previous activity of its stream (kernel-to-kernel gap), and
//    an inferred event wait (stored traces keep no event record): for the first launch after a
//    cudaStreamWaitEvent on the thread, the latest activity on another stream of the device launched
//    before that call; for an activity starting more than 50 us after both its launch and its stream
//    predecessor allowed, the latest activity on another stream launched before it that ended in between;
//  - synchronisation: into the end of a blocking call (device/stream/event synchronise, a copy the call
//    waited for), the end of the latest GPU activity launched before the call that ended inside it.
// Of the edges into one node, the binding one — the dependency satisfied last, the largest source
// time — carries the measured lag; the others weigh 0 (they order but add nothing). So the longest path to
// any node equals its measured time since the window's start, and re-weighting edges re-times the
// window (metrics/WhatIf.h). Build O((V + E) log V) (sorting); memory O(V + E) of one rank's window.
#include "core/StepEvents.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace cnp {

// What an edge's time is, for the breakdown of a path (docs/metrics.md, "Critical path").
enum class PathKind : std::uint8_t {
    Cpu = 0,        // CPU-bound: a CPU op's own time, untraced CPU time between events, a non-launch API call
    Compute,        // a GPU kernel's duration (not communication)
    Communication,  // a communication kernel's duration (less its wait for the last rank, see CriticalPath)
    Memory,         // a memcpy or memset's duration
    Launch,         // a launching API call's own time and launch-call start -> GPU start delay
    KernelGap,      // previous activity on the stream -> this one's start
    Sync,           // GPU activity end -> the blocking call's return, or an (inferred) GPU->GPU event wait
    CollectiveWait, // the part of a collective spent waiting for the last rank to arrive
};
inline constexpr int kPathKindCount = 8;
const char* toString(PathKind kind);

struct GraphNode {
    Ns ts = 0;
    std::int32_t event = -1; // index into StepEvents::cpu or ::gpu; -1 for the source
    bool gpu = false;
    bool start = true;
};

struct GraphEdge {
    std::int32_t from = 0, to = 0;
    Ns weight = 0; // ns the edge adds to a path through it (the measured lag if binding, else 0)
    PathKind kind = PathKind::Cpu;
    std::int32_t cpuEvent = -1; // the CPU event the time is attributed to (-1: none, e.g. a thread gap)
    std::int32_t gpuEvent = -1; // the GPU activity the edge leads into or spans (-1: none)
    bool binding = false;       // the dependency satisfied last at `to`
};

struct DependencyGraphOptions {
    // CPU time of a thread outside every cpu_op and API call (between operators, inside annotations only)
    // counts on a path. Off, it weighs 0 as in HTA's critical-path analysis (docs/metrics.md).
    bool countUntracedCpuTime = true;
};

class DependencyGraph {
public:
    // `events` must outlive the graph. Throws std::runtime_error when the window's times form a cycle
    // (inconsistent timestamps).
    static DependencyGraph build(const StepEvents& events, const DependencyGraphOptions& options = {});

    const StepEvents& events() const { return *events_; }
    const std::vector<GraphNode>& nodes() const { return nodes_; }
    const std::vector<GraphEdge>& edges() const { return edges_; }
    // Edge indices into each node, and a topological order of the nodes (source first).
    const std::vector<std::int32_t>& inEdgeOffsets() const { return inOffsets_; } // size nodes + 1
    const std::vector<std::int32_t>& inEdges() const { return inEdges_; }
    const std::vector<std::int32_t>& topologicalOrder() const { return order_; }
    // GPU activities of the window that are in the graph (launched by one of its API calls).
    std::int32_t gpuActivityCount() const { return gpuInGraph_; }
    // Blocking calls of the window whose wait was resolved to a GPU activity / not resolved.
    std::int32_t resolvedSyncs() const { return resolvedSyncs_; }
    std::int32_t inferredEventWaits() const { return inferredWaits_; }

    static std::int32_t sourceNode() { return 0; }
    std::int32_t startOfCpu(std::int32_t i) const { return 1 + 2 * i; }
    std::int32_t endOfCpu(std::int32_t i) const { return 2 + 2 * i; }
    std::int32_t startOfGpu(std::int32_t g) const { return 1 + 2 * cpuCount_ + 2 * g; }
    std::int32_t endOfGpu(std::int32_t g) const { return 2 + 2 * cpuCount_ + 2 * g; }

    // Classification of API names (cuda*, cu*, hip* forms).
    static bool isBlockingSync(std::string_view apiName);
    static bool isCopyOrFill(std::string_view apiName);
    static bool isStreamWaitEvent(std::string_view apiName);

private:
    struct Candidate {
        std::int32_t from = 0;
        PathKind kind = PathKind::Cpu;
        std::int32_t cpuEvent = -1, gpuEvent = -1;
        int preference = 0; // among equal source times, the larger wins
        bool free = false;  // weighs 0 even when binding (untraced CPU time when not counted)
    };
    void addNodes();
    void addCpuChains(std::vector<std::vector<Candidate>>& into);
    void addGpuEdges(std::vector<std::vector<Candidate>>& into);
    void addSyncEdges(std::vector<std::vector<Candidate>>& into);
    void resolve(std::vector<std::vector<Candidate>>&& candidates);
    void sortTopologically();

    const StepEvents* events_ = nullptr;
    DependencyGraphOptions options_;
    std::int32_t cpuCount_ = 0;
    std::vector<GraphNode> nodes_;
    std::vector<GraphEdge> edges_;
    std::vector<std::int32_t> inOffsets_, inEdges_, order_;
    std::vector<std::int32_t> launchOf_;     // per GPU activity: its launching CPU event, -1 = not in graph
    std::vector<std::int32_t> waitBefore_;   // per CPU event: the cudaStreamWaitEvent before it, -1 none
    std::vector<std::uint8_t> launchedWork_; // per CPU event: it launched GPU work of the window
    std::int64_t mainTid_ = -1;
    std::int32_t gpuInGraph_ = 0, resolvedSyncs_ = 0, inferredWaits_ = 0;
};

} // namespace cnp
