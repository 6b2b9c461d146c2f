#include "metrics/Breakdown.h"

#include "core/InputError.h"

#include <algorithm>
#include <bit>
#include <string>

namespace cnp {

RankTimeline::RankTimeline(const std::vector<TimedActivity>& activities, const CategoryOrder& order)
    : categoryCount_(order.names.size()) {
    // Compute categories are a 64-bit mask; communication and memory are counted beside it (they once
    // shared the mask, so 62 categories and the fallback were refused as "more than 62": issue 33.7).
    const auto computeCount = static_cast<std::size_t>(order.communication);
    if (computeCount > kMaxComputeCategories || categoryCount_ > 255)
        throw InputError("category rules", std::to_string(computeCount) + " kernel categories; at most " +
                                               std::to_string(kMaxComputeCategories) + " are supported");
    struct Edge {
        Ns t;
        int delta;
        int cat;
    };
    std::vector<Edge> edges;
    edges.reserve(activities.size() * 2);
    Ns lo = 0, hi = 0;
    bool any = false;
    for (const auto& a : activities) {
        if (a.end <= a.start)
            continue;
        edges.push_back({a.start, +1, a.category});
        edges.push_back({a.end, -1, a.category});
        lo = any ? std::min(lo, a.start) : a.start;
        hi = any ? std::max(hi, a.end) : a.end;
        any = true;
    }
    span_ = {lo, hi};
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.t < b.t; });
    std::vector<std::int64_t> count(categoryCount_, 0);
    std::uint64_t mask = 0; // active compute categories
    const auto comm = static_cast<std::size_t>(order.communication);
    const auto mem = static_cast<std::size_t>(order.memory);
    std::size_t e = 0;
    while (e < edges.size()) {
        const Ns t = edges[e].t;
        for (; e < edges.size() && edges[e].t == t; ++e) {
            const auto cat = static_cast<std::size_t>(edges[e].cat);
            auto& c = count[cat];
            c += edges[e].delta;
            if (cat >= computeCount)
                continue;
            if (c > 0)
                mask |= std::uint64_t{1} << cat;
            else
                mask &= ~(std::uint64_t{1} << cat);
        }
        const bool commActive = comm < count.size() && count[comm] > 0;
        const bool memActive = mem < count.size() && count[mem] > 0;
        if ((mask == 0 && !commActive && !memActive) || e == edges.size())
            continue;
        const Ns next = edges[e].t;
        const std::size_t top = mask         ? static_cast<std::size_t>(std::countr_zero(mask))
                                : commActive ? comm
                                             : mem;
        Segment s{t, next, static_cast<std::uint8_t>(top),
                  static_cast<std::uint8_t>((mask ? kCompute : 0) | (commActive ? kComm : 0) |
                                            (memActive ? kMemory : 0))};
        if (!segments_.empty() && segments_.back().end == s.start &&
            segments_.back().exclusive == s.exclusive && segments_.back().flags == s.flags)
            segments_.back().end = s.end;
        else
            segments_.push_back(s);
    }
}

WindowBreakdown RankTimeline::breakdown(Interval w) const {
    WindowBreakdown b;
    b.window = w;
    b.exclusive.assign(categoryCount_, 0);
    if (w.length() == 0)
        return b;
    auto it = std::upper_bound(segments_.begin(), segments_.end(), w.start,
                               [](Ns t, const Segment& s) { return t < s.end; });
    Ns busy = 0;
    for (; it != segments_.end() && it->start < w.end; ++it) {
        const Ns len = std::min(it->end, w.end) - std::max(it->start, w.start);
        if (len <= 0)
            continue;
        busy += len;
        b.exclusive[it->exclusive] += len;
        const bool c = it->flags & kCompute, m = it->flags & kComm, y = it->flags & kMemory;
        if (c)
            b.compute += len;
        if (m) {
            b.communicationTotal += len;
            if (c)
                b.overlap += len;
            else
                b.communication += len;
        }
        if (y && !c && !m)
            b.memory += len;
    }
    b.idle = w.length() - busy;
    return b;
}

IntervalSet RankTimeline::idleGaps(Interval w) const {
    IntervalSet gaps;
    if (w.length() == 0)
        return gaps;
    Ns cursor = w.start;
    auto it = std::upper_bound(segments_.begin(), segments_.end(), w.start,
                               [](Ns t, const Segment& s) { return t < s.end; });
    for (; it != segments_.end() && it->start < w.end; ++it) {
        if (it->start > cursor)
            gaps.push_back({cursor, it->start});
        cursor = std::max(cursor, it->end);
    }
    if (cursor < w.end)
        gaps.push_back({cursor, w.end});
    return gaps;
}

WindowBreakdown computeBreakdown(const std::vector<TimedActivity>& activities, const CategoryOrder& order,
                                 Interval window) {
    return RankTimeline(activities, order).breakdown(window);
}

} // namespace cnp
