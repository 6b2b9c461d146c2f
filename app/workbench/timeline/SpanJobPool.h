#pragma once
// The span-building half of a timeline frame (the "preprocess" step of Tracy's Preprocess/Draw split):
// the draw lists of the lanes in view, EventTrack::buildSpans of each lane, built on the calling (GUI)
// thread plus up to 3 helper threads (1 on a 2-core machine, none on one core). The painter then only
// reads the lists.
// Invariants: buildSpans is const and reads only its own lane, so lanes build independently; each lane
// is built by exactly one thread into its own slot and published by a release/acquire flag; build()
// never waits for a helper: a lane a helper has not finished when the caller runs out of lanes is
// built again on the caller's thread. A late helper finishes into jobs it keeps alive itself, together
// with the owner (`keepAlive`, the model) of the tracks it reads.
// Cost: O(events in view) per frame, shared among the threads when there are >= ~16k events in view.
#include "timeline/EventTrack.h"
#include "timeline/TimeAxis.h"

#include <memory>
#include <vector>

class QThreadPool;

namespace cnp::wb {

class SpanJobPool {
public:
    SpanJobPool();
    ~SpanJobPool(); // waits for running helpers (they only finish their current lanes)
    SpanJobPool(const SpanJobPool&) = delete;
    SpanJobPool& operator=(const SpanJobPool&) = delete;

    // Builds the draw list of tracks[k] in `axis` for every k; the result's k-th pointer is that list,
    // valid until the next build(). `keepAlive` owns the tracks (a helper holds it while it runs).
    const std::vector<const std::vector<timeline::DrawSpan>*>&
    build(const timeline::TimeAxis& axis, const std::vector<const timeline::EventTrack*>& tracks,
          const std::shared_ptr<const void>& keepAlive);

private:
    struct Jobs; // one frame's lanes and draw lists, shared with the helper threads
    std::shared_ptr<Jobs> jobs_;
    std::unique_ptr<QThreadPool> pool_;                             // null on a single core
    std::vector<const std::vector<timeline::DrawSpan>*> laneSpans_; // the result of the last build
    std::vector<std::vector<timeline::DrawSpan>> retaken_;          // lanes built again on this thread
};

} // namespace cnp::wb
