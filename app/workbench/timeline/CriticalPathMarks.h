#pragma once
// Where one rank's critical path (requests/CriticalPathRequest.h) lies on a timeline model: per path
// segment, in the path's time order, the row it lies on (the CPU thread of CPU time, launch calls and a
// sync's return; the GPU stream of activities, launch delays, kernel gaps and event waits), its span and
// the event its time belongs to (found by the event's exact measured span; none for untraced CPU time or
// an event the model does not hold, e.g. an overview without events). The view outlines those events,
// shades the segments' spans and joins consecutive segments, across rows, by a polyline.
// Built in O(segments x rows of the rank x log events).
#include "metrics/DependencyGraph.h"
#include "timeline/EventDetails.h"
#include "timeline/TimelineModel.h"

#include <cstdint>
#include <vector>

namespace cnp {
struct RankCriticalPath;
}

namespace cnp::wb {

struct PathMark {
    int row = -1;                  // the timeline row the segment lies on; -1: no such row in the model
    int lane = 0;                  // the event's lane (nesting depth), else 0
    Ns start = 0, end = 0;         // the segment's span, absolute ns (as stored)
    PathKind kind = PathKind::Cpu; // what the time is (docs/metrics.md, "Critical path")
    timeline::EventRef event;      // the event the time belongs to; invalid when none was found
};

class CriticalPathMarks {
public:
    CriticalPathMarks() = default;
    CriticalPathMarks(const timeline::TimelineModel& model, const RankCriticalPath& path);

    std::int32_t rank() const { return rank_; }
    const std::vector<PathMark>& marks() const { return marks_; }
    bool empty() const { return marks_.empty(); }
    // The index of the longest mark of `kind` (the first on a tie), -1 when the path has none.
    int longestOf(PathKind kind) const;

private:
    std::int32_t rank_ = -1;
    std::vector<PathMark> marks_;
};

} // namespace cnp::wb
