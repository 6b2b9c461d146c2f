#pragma once
// Reads one rank's events inside one analysis window — a detected step, the n-th CPU range whose name
// contains a text, or the rank's whole trace — for the dependency graph (metrics/DependencyGraph.h).
// Each read is a binary search per event table (`Workspace::lowerBoundId`) then a sequential range of the
// rank's rows, in its shard (`Workspace::eventStoreOf`): O(log n + rows in the window); memory: one
// window of one rank. Names resolve through the index's strings, once per distinct id.
#include "core/Ids.h"
#include "core/StepEvents.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

class StepEventReader {
public:
    struct Window {
        std::int32_t rank = 0;
        std::int32_t stepIndex = -1; // -1: not a detected step
        std::string label;
        Ns start = 0,
           end = 0;     // CPU events starting in [start, end) belong to the window ([start, start] if empty)
        Ns gpuEnd = -1; // the step's GPU end (-1 unknown): GPU activities are read up to a horizon past it
        std::int64_t tid = -1; // the thread of the window's CPU range, -1 unknown
    };

    StepEventReader(const Workspace& ws, RunId runId) : ws_(ws), runId_(runId) {}

    std::vector<std::int32_t> ranks() const;
    // The rank's detected steps, by step index.
    std::vector<Window> steps(std::int32_t rank) const;
    // The `instance`-th (0-based, by start time) CPU range of the rank whose name contains `text`.
    std::optional<Window> annotation(std::int32_t rank, const std::string& text, std::int32_t instance) const;
    // From the rank's first CPU event to its last CPU event's end; nullopt without CPU events.
    std::optional<Window> wholeTrace(std::int32_t rank) const;
    // The window's API calls and CPU ranges (python_function ranges left out), and the GPU activities that
    // start from the window's start to a horizon: the later of its end and its GPU end, plus its length
    // again (work launched in the window and queued). The graph keeps those launched by the window's calls.
    StepEvents read(const Window& window) const;

private:
    const Workspace& ws_;
    RunId runId_;
};

} // namespace cnp
