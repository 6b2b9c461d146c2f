#include "timeline/TimelineModel.h"

#include <algorithm>

namespace cnp::timeline {

std::size_t TimelineRow::eventCount() const {
    std::size_t n = counter.ts.size();
    for (const auto& l : lanes)
        n += l.size();
    return n;
}

TimelineRow TimelineRow::header() const {
    TimelineRow h;
    h.kind = kind;
    h.label = label;
    h.group = group;
    h.rank = rank;
    h.device = device;
    h.stream = stream;
    h.pid = pid;
    h.tid = tid;
    return h;
}

std::size_t TimelineModel::eventCount() const {
    std::size_t n = 0;
    for (const auto& r : rows)
        n += r.eventCount();
    return n;
}

std::size_t TimelineModel::memoryBytes() const {
    std::size_t b =
        sizeof(*this) + rows.capacity() * sizeof(TimelineRow) + groups.capacity() * sizeof(TimelineGroup);
    for (const auto& r : rows) {
        for (const auto& l : r.lanes)
            b += l.memoryBytes();
        b += r.counter.ts.capacity() * sizeof(Ns) + r.counter.value.capacity() * sizeof(double) +
             r.label.capacity();
    }
    for (const auto& s : names)
        b += sizeof(std::string) + s.capacity(); // the string object and its heap text
    b += steps.capacity() * sizeof(StepRange);
    return b;
}

bool TimelineModel::isRowVisible(int row) const {
    const int own = rows[row].group;
    const bool summary = rows[row].kind == RowKind::GpuBusy && own >= 0;
    for (int g = summary ? groups[own].parent : own; g >= 0; g = groups[g].parent)
        if (groups[g].collapsed)
            return false;
    return true;
}

std::vector<LayoutItem> TimelineModel::layout(int laneHeight, int headerHeight) const {
    std::vector<LayoutItem> items;
    items.reserve(rows.size() + groups.size());
    int y = 0;
    std::vector<bool> emitted(groups.size(), false);
    auto groupVisible = [&](int g) {
        for (int p = groups[g].parent; p >= 0; p = groups[p].parent)
            if (groups[p].collapsed)
                return false;
        return true;
    };
    // Emits the headers of g's ancestors (outermost first) the first time one of their rows shows.
    auto emitGroup = [&](auto&& self, int g) -> void {
        if (g < 0 || emitted[g])
            return;
        self(self, groups[g].parent);
        emitted[g] = true;
        if (!groupVisible(g))
            return;
        items.push_back({true, g, y, headerHeight, groups[g].depth});
        y += headerHeight;
    };
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        emitGroup(emitGroup, rows[r].group);
        if (!isRowVisible(r))
            continue;
        const TimelineRow& row = rows[r];
        const int lanes =
            row.kind == RowKind::Counter ? 2 : std::max<int>(1, static_cast<int>(row.lanes.size()));
        const int depth = row.group >= 0 ? groups[row.group].depth + 1 : 0;
        items.push_back({false, r, y, lanes * laneHeight, depth});
        y += lanes * laneHeight;
    }
    return items;
}

void TimelineModel::collapseRanksBeyond(std::size_t expanded) {
    std::vector<std::size_t> rankGroups;
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g].parent < 0)
            rankGroups.push_back(g);
    if (rankGroups.size() <= expanded)
        return;
    for (std::size_t i = 1; i < rankGroups.size(); ++i)
        groups[rankGroups[i]].collapsed = true;
}

int TimelineModel::findStyle(const std::string& name) const {
    const auto it = std::find(styles.begin(), styles.end(), name);
    return it == styles.end() ? -1 : static_cast<int>(it - styles.begin());
}

std::vector<int> TimelineModel::rowsOfRank(std::int32_t rank) const {
    std::vector<int> out;
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        if (rows[r].rank == rank)
            out.push_back(r);
    return out;
}

} // namespace cnp::timeline
