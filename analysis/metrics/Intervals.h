#pragma once
// Interval algebra on half-open integer-ns intervals [start, end). An IntervalSet is a sorted vector
// of pairwise disjoint, non-touching, non-empty intervals (the canonical form of a union); every
// function returning an IntervalSet returns it canonical. All operations are exact in integer ns.
#include "core/Interval.h"
#include "core/TraceData.h"

#include <vector>

namespace cnp {

using IntervalSet = std::vector<Interval>;

// Canonical union of arbitrary intervals (empty ones dropped, touching ones merged). O(n log n).
IntervalSet unionOf(std::vector<Interval> intervals);
// Total length of a canonical set. O(n).
Ns totalLength(const IntervalSet& s);
// Set operations on canonical sets. O(|a| + |b|).
IntervalSet intersect(const IntervalSet& a, const IntervalSet& b);
IntervalSet subtract(const IntervalSet& a, const IntervalSet& b);
IntervalSet unite(const IntervalSet& a, const IntervalSet& b);
IntervalSet clip(const IntervalSet& s, Interval window);

} // namespace cnp
