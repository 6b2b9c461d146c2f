#pragma once
// A run's timeline overview (TimelineOverview.h) built part by part, for an ingest that streams a run
// file by file instead of holding it in memory: each part (the TraceData of one file: one or a few
// ranks; parts arrive in increasing rank order, their ranks disjoint) becomes
//     makeOverview(TimelineBuilder::fromTrace(part, {}, BusyRows::Always))
// is appended to the run's model with appendOverviewPart, and finishOverview runs once after the last
// part, when the run's span is known.
//
// Guarantee, for a trace split by rank into parts, against makeOverview(TimelineBuilder::fromTrace(whole)):
//  - exact: the rows (kind, label, group, rank, device, stream, pid, tid, counter samples kept per
//    bucket, lane count), the groups (labels, tree, collapsed flags), the steps (names as text), the run's
//    span, and every lane's merged events' starts and ends. A part's span lies within the run's, so its
//    bucket grid subdivides the run's (OverviewGrid.h): each run bucket's events are the union of whole part
//    buckets' events.
//  - approximate where a run bucket holds more than one raw event: the name and kind (of the longest
//    part-merged event, not the longest raw one) and the style (dominant over part-merged events). They
//    are still a name, kind and style of that bucket's raw events; alone in its bucket, an event's are exact.
#include "timeline/TimelineModel.h"

namespace cnp::timeline {

// Appends `part`'s groups, rows and steps after `into`'s (the part's ranks all above into's, so rows and
// steps stay in model order), moving its name and style ids to `into`'s tables (texts `into` lacks are
// appended; beyond 255 styles a new style maps to style 0, as TimelineBuilder::internStyle does) and its
// group indices past into's groups. The span widens to cover the part's; an `into` without rows takes the
// part's span, and its runId / runName where unset. A part without rows adds no span.
// O(into.names + part's names, styles x styles, groups, rows and events).
void appendOverviewPart(TimelineModel& into, TimelineModel&& part);

// Re-merges every lane on the grid makeOverview(full, buckets) would use for o's span (mergeLanePerBucket):
// events already merged on a finer grid (a part's) whose starts share a bucket become one. An overview made
// with the same `buckets` over the same span is left exactly as it is (one event per bucket). O(events).
void rebucketOverview(TimelineModel& o, int buckets = 8192);

// The bucket count of the overview of a run of `ranks` ranks: 8192 up to 8 ranks, halved each time the
// ranks double, never below 256. A cluster's overview then holds about as many events at 1,024 ranks as
// at 32 (its first paint shows each rank's GPU-busy row; the full model replaces it when loaded), so its
// memory and blob stay bounded (a 256-rank run's blob was 47 MB at 8192). O(1).
int overviewBucketsFor(std::size_t ranks);

// After the last part: rebucketOverview, then what TimelineBuilder decides from the rank count: the GpuBusy
// rows go again when the run has at most kExpandedRanks ranks with events (counter rows do not count, as in
// TimelineBuilder::build), and the rank groups are collapsed as collapseRanksBeyond(kExpandedRanks) does
// (the flags are not stored, loadOverview applies the same default; this makes the model equal anyway).
// O(events + rows + groups).
void finishOverview(TimelineModel& o, int buckets = 8192);

} // namespace cnp::timeline
