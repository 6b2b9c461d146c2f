#pragma once
// Temporal breakdown and per-category exclusive time of GPU windows on one rank
// (docs/metrics.md, "Temporal breakdown"). Exact partitions in integer ns:
//   compute + communication + memory + idle == window length, and
//   sum(exclusive[c] for all categories) + idle == window length,
//   sum(exclusive[c] for compute categories) == compute.
#include "core/CategoryOrder.h"
#include "core/TraceData.h"
#include "metrics/Intervals.h"

#include <string>
#include <vector>

namespace cnp {

struct TimedActivity {
    Ns start = 0, end = 0;
    int category = 0; // index into CategoryOrder::names
};

struct WindowBreakdown {
    Interval window;
    Ns compute = 0, communication = 0, overlap = 0, memory = 0, idle = 0;
    Ns communicationTotal = 0; // |M|, the denominator of overlap %
    std::vector<Ns> exclusive; // per CategoryOrder index
    Ns length() const { return window.length(); }
};

// The activities of one rank flattened into time-ordered, disjoint segments with a constant set of
// active categories. Built once in O(n log n); breakdown(W) costs O(log s + segments inside W).
class RankTimeline {
public:
    // Compute categories a breakdown tells apart (a bit each); communication and memory come beside them.
    static constexpr std::size_t kMaxComputeCategories = 64;
    RankTimeline(const std::vector<TimedActivity>& activities, const CategoryOrder& order);
    WindowBreakdown breakdown(Interval window) const;
    // Busy span [earliest start, latest end] of all non-empty activities; {0,0} when none.
    Interval span() const { return span_; }
    // Maximal idle gaps (no activity at all) inside `window`, in time order.
    IntervalSet idleGaps(Interval window) const;

private:
    struct Segment {
        Ns start, end;
        std::uint8_t exclusive; // highest-priority active category
        std::uint8_t flags;     // kCompute | kComm | kMemory
    };
    static constexpr std::uint8_t kCompute = 1, kComm = 2, kMemory = 4;
    std::vector<Segment> segments_;
    std::size_t categoryCount_;
    Interval span_;
};

// Convenience: one window's breakdown straight from activities (tests, small inputs).
WindowBreakdown computeBreakdown(const std::vector<TimedActivity>& activities, const CategoryOrder& order,
                                 Interval window);

} // namespace cnp
