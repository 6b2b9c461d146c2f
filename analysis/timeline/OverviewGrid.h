#pragma once
// The time grid of a stored timeline overview (TimelineOverview.h) and the per-bucket merge of a lane.
// The grid is aligned to the absolute clock, not to the run's start: bucket width w is a power of two
// (ns) and bucket b is [b * w, (b + 1) * w), b = floor(t / w) (also for negative t). A span S gets
// w(S) = bit_ceil(max(1, ceil(S / buckets))), which is monotone in S; so for spans S' <= S, w(S') divides
// w(S) and every bucket of the coarser grid is an exact union of buckets of the finer one. That is what
// lets per-part overviews (a few ranks each, OverviewMerge.h) be merged into the run's overview with the
// same event starts and ends as an overview made from the whole run at once.
#include "timeline/EventTrack.h"
#include "timeline/TimelineModel.h"

namespace cnp::timeline {

// The bucket width for a span [runStart, runEnd] (runEnd >= runStart) cut into at most `buckets`
// buckets: a power of two >= 1 and >= ceil((runEnd - runStart) / buckets), the smallest such. The span
// then touches at most buckets + 1 buckets of the grid (alignment) and, for spans of at least `buckets`
// ns, more than buckets / 2. Computed in unsigned arithmetic, so any int64 span is fine. O(1).
Ns overviewBucketWidth(Ns runStart, Ns runEnd, int buckets);

// The first time of t's bucket: floor(t / width) * width, for a power-of-two width (any sign of t). O(1).
inline Ns bucketStartOf(Ns t, Ns width) {
    return t & -width; // two's complement: clears the low log2(width) bits, rounding towards -infinity
}

// `lane` with its consecutive events whose starts fall into one bucket of the `width` grid merged into
// one event: start = the first's start, end = the last's effective end (so every merged event has
// end > start), name and kind of the longest of the bucket's first 64 events (the first of equals),
// style = dominantStyle over the bucket (exact for fewer than 32 events). Events alone in their bucket
// keep name, style and kind; an event already merged on a finer grid of the same lane counts as one
// event. Keeps EventTrack's invariant (starts increase across buckets; the last event of a bucket ends
// no later than the next bucket's first starts). Returns a finished track. O(n): per bucket, a galloping
// search (O(log of its events)), a scan of at most 64 events and dominantStyle (O(1) amortised).
EventTrack mergeLanePerBucket(const EventTrack& lane, Ns width);

// `series` reduced to at most three samples per bucket of the `width` grid: the bucket's lowest sample, its
// highest and its last (each the first of equals; one sample where they coincide), in time order. So the
// series keeps its envelope per bucket and the value it holds after each bucket, and minValue / maxValue
// stay those of `series`. Merging again on a coarser grid of the same family (a multiple of `width`) gives
// what merging the raw series on that grid gives: every kept sample of a bucket is one of its finer
// buckets' kept samples. O(samples).
CounterSeries mergeCounterPerBucket(const CounterSeries& series, Ns width);

} // namespace cnp::timeline
