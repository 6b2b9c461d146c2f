#pragma once
// Critical paths and what-if predictions of a stored run's windows (docs/metrics.md, "Critical path",
// "What-if"): one read transaction; per rank, one window's events read (store/StepEventReader), its
// dependency graph built and its longest path taken (metrics/), then dropped, so memory is one window of
// one rank plus each rank's path breakdown. Collectives are joined across ranks afterwards by ordinal.
#include "core/Ids.h"
#include "metrics/CriticalPath.h"
#include "metrics/WhatIf.h"

#include <optional>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

// Which window of which ranks. Without step and annotation: a run with steps takes its median step (by CPU
// duration, on the first rank read) for critical-path, every step for what-if; a run without steps, the
// whole trace.
struct WindowChoice {
    std::optional<std::int32_t> step;      // a detected step's index
    std::optional<std::string> annotation; // the instance-th CPU range whose name contains this
    std::int32_t instance = 0;
    std::optional<std::int32_t> rank; // one rank; all when unset
    DependencyGraphOptions graph;     // how the graphs weigh untraced CPU time
};

// A path segment with where it lies on the timeline: the thread of a CPU segment, the device and stream
// of a GPU one (a launch delay, a kernel gap or an event wait lies on the activity's stream).
struct NamedSegment {
    PathSegment segment;
    std::string name;      // the event the time is attributed to ("" for untraced CPU time)
    std::int64_t tid = -1; // CPU segments
    std::int32_t device = -1;
    std::int64_t stream = -1; // GPU segments
    // The measured span of the event named (absolute ns, as stored), for finding it on the timeline;
    // eventEnd < eventStart when the time belongs to no event (untraced CPU time).
    Ns eventStart = 0, eventEnd = -1;
};

struct RankCriticalPath {
    std::int32_t rank = 0;
    std::int32_t stepIndex = -1;
    std::string window; // the window's label
    Ns windowStart = 0;
    CriticalPathResult path;            // segments kept only when `keepSegments` (else communication only)
    std::vector<NamedSegment> segments; // the path in time order, when kept
    std::int32_t cpuEvents = 0, gpuActivities = 0, edges = 0;
    std::int32_t resolvedSyncs = 0, inferredEventWaits = 0;
};

struct CriticalPathReport {
    std::string run;
    std::vector<RankCriticalPath> ranks;
    bool collectivesJoined = false; // every rank had the same number of collectives in the window
    std::vector<std::string> notes; // what the model could not see (docs/metrics.md)
};

// Throws InputError for an unknown run, step, rank or annotation.
CriticalPathReport computeCriticalPath(const Workspace& ws, const std::string& runName,
                                       const WindowChoice& choice, bool keepSegments);

struct WhatIfWindow {
    std::int32_t stepIndex = -1;
    std::string window;
    Ns measured = 0, predicted = 0; // the slowest rank's critical path, as measured and re-timed
    std::int32_t slowestRank = 0, predictedSlowestRank = 0;
};

struct WhatIfReport {
    std::string run;
    std::string scenario; // WhatIfScenario::describe()
    std::vector<WhatIfWindow> windows;
    Ns medianMeasured = 0, medianPredicted = 0;
    double ratio = 1.0;                     // median over windows of predicted / measured
    double ratioLow = 1.0, ratioHigh = 1.0; // the lowest and highest per-window ratio
    Ns predictedLow = 0, predictedHigh = 0; // medianMeasured x ratioLow / ratioHigh
    std::vector<std::string> notes;
};

WhatIfReport computeWhatIf(const Workspace& ws, const std::string& runName, const WindowChoice& choice,
                           const WhatIfScenario& scenario);

} // namespace cnp
