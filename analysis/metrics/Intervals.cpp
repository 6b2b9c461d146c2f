#include "metrics/Intervals.h"

#include "core/TimeBounds.h"

#include <algorithm>

namespace cnp {

IntervalSet unionOf(std::vector<Interval> v) {
    std::erase_if(v, [](const Interval& i) { return i.end <= i.start; });
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    IntervalSet out;
    for (const auto& i : v) {
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

Ns totalLength(const IntervalSet& s) {
    Ns t = 0;
    for (const auto& i : s)
        t = saturatingAdd(t, i.length());
    return t;
}

IntervalSet intersect(const IntervalSet& a, const IntervalSet& b) {
    IntervalSet out;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const Ns s = std::max(a[i].start, b[j].start);
        const Ns e = std::min(a[i].end, b[j].end);
        if (s < e)
            out.push_back({s, e});
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return out;
}

IntervalSet subtract(const IntervalSet& a, const IntervalSet& b) {
    IntervalSet out;
    std::size_t j = 0;
    for (auto cur : a) {
        while (j < b.size() && b[j].end <= cur.start)
            ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].start < cur.end) {
            if (b[k].start > cur.start)
                out.push_back({cur.start, b[k].start});
            cur.start = std::max(cur.start, b[k].end);
            if (cur.start >= cur.end)
                break;
            ++k;
        }
        if (cur.start < cur.end)
            out.push_back(cur);
    }
    return out;
}

IntervalSet unite(const IntervalSet& a, const IntervalSet& b) {
    std::vector<Interval> all;
    all.reserve(a.size() + b.size());
    all.insert(all.end(), a.begin(), a.end());
    all.insert(all.end(), b.begin(), b.end());
    return unionOf(std::move(all));
}

IntervalSet clip(const IntervalSet& s, Interval w) {
    if (w.length() == 0)
        return {};
    return intersect(s, IntervalSet{w});
}

} // namespace cnp
