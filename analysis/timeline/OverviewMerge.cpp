#include "timeline/OverviewMerge.h"

#include "timeline/OverviewGrid.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

namespace cnp::timeline {

namespace {

// Where each of `from`'s names lands in `into`: the first entry with the same text, or a new one appended.
// O(into + from) expected (one hash lookup per name).
std::vector<std::uint32_t> mergeNames(std::vector<std::string>& into, std::vector<std::string>&& from) {
    // The index holds views of into's strings: reserving first keeps them where they are (no reallocation
    // moves a short string's inline buffer) while new texts are appended.
    into.reserve(into.size() + from.size());
    std::unordered_map<std::string_view, std::uint32_t> index;
    index.reserve(into.size() + from.size());
    for (std::size_t k = 0; k < into.size(); ++k)
        index.emplace(into[k], static_cast<std::uint32_t>(k)); // keeps the first of equal texts
    std::vector<std::uint32_t> map(from.size());
    for (std::size_t k = 0; k < from.size(); ++k) {
        const auto it = index.find(from[k]);
        if (it != index.end()) {
            map[k] = it->second;
            continue;
        }
        map[k] = static_cast<std::uint32_t>(into.size());
        into.push_back(std::move(from[k]));
        index.emplace(into.back(), map[k]);
    }
    return map;
}

// The same for styles, which are a byte: at most 255 of them, as in TimelineBuilder::internStyle (a style
// beyond maps to 0, the neutral one). O(into x from) with both <= 255.
std::vector<std::uint8_t> mergeStyles(std::vector<std::string>& into, const std::vector<std::string>& from) {
    std::vector<std::uint8_t> map(from.size(), 0);
    for (std::size_t k = 0; k < from.size(); ++k) {
        const auto it = std::find(into.begin(), into.end(), from[k]);
        if (it != into.end()) {
            map[k] = static_cast<std::uint8_t>(std::min<std::ptrdiff_t>(it - into.begin(), 255));
        } else if (into.size() < 255) {
            map[k] = static_cast<std::uint8_t>(into.size());
            into.push_back(from[k]);
        }
    }
    return map;
}

// Ranks that hold a row with events (every row but counters; TimelineBuilder::build counts those). O(rows).
std::size_t ranksWithEvents(const TimelineModel& o) {
    std::set<std::int32_t> ranks;
    for (const auto& r : o.rows)
        if (r.kind != RowKind::Counter)
            ranks.insert(r.rank);
    return ranks.size();
}

} // namespace

void appendOverviewPart(TimelineModel& into, TimelineModel&& part) {
    const bool intoEmpty = into.rows.empty();
    if (intoEmpty && into.runName.empty())
        into.runName = part.runName;
    if (intoEmpty && into.runId == RunId())
        into.runId = part.runId;
    if (!part.rows.empty()) {
        into.runStart = intoEmpty ? part.runStart : std::min(into.runStart, part.runStart);
        into.runEnd = intoEmpty ? part.runEnd : std::max(into.runEnd, part.runEnd);
    }
    const std::vector<std::uint32_t> names = mergeNames(into.names, std::move(part.names));
    const std::vector<std::uint8_t> styles = mergeStyles(into.styles, part.styles);
    const int groupBase = static_cast<int>(into.groups.size());
    for (TimelineGroup& g : part.groups) {
        g.parent = g.parent < 0 ? g.parent : g.parent + groupBase;
        into.groups.push_back(std::move(g));
    }
    for (TimelineRow& r : part.rows) {
        r.group = r.group < 0 ? r.group : r.group + groupBase;
        for (EventTrack& lane : r.lanes)
            lane.remapIds(names, styles);
        into.rows.push_back(std::move(r));
    }
    for (StepRange s : part.steps) {
        s.name = names[s.name];
        into.steps.push_back(s);
    }
    part = TimelineModel(); // its tables were moved from: leave it empty rather than inconsistent
}

void rebucketOverview(TimelineModel& o, int buckets) {
    const Ns width = overviewBucketWidth(o.runStart, o.runEnd, buckets);
    for (TimelineRow& r : o.rows) {
        for (EventTrack& lane : r.lanes)
            lane = mergeLanePerBucket(lane, width);
        r.counter = mergeCounterPerBucket(r.counter, width);
    }
}

int overviewBucketsFor(std::size_t ranks) {
    int buckets = 8192;
    for (std::size_t r = 8; r < ranks && buckets > 256; r *= 2)
        buckets /= 2;
    return buckets;
}

void finishOverview(TimelineModel& o, int buckets) {
    rebucketOverview(o, buckets);
    if (ranksWithEvents(o) <= kExpandedRanks)
        std::erase_if(o.rows, [](const TimelineRow& r) { return r.kind == RowKind::GpuBusy; });
    // Nothing refers to a row by index, so removing rows needs no fix-up; groups stay (a busy row's rank
    // group holds the rank's other rows or sections too).
    for (TimelineGroup& g : o.groups)
        g.collapsed = false; // a part with more than kExpandedRanks ranks collapsed its own groups
    o.collapseRanksBeyond(kExpandedRanks);
}

} // namespace cnp::timeline
