#include "timeline/CriticalPathMarks.h"

#include "requests/CriticalPathRequest.h"

namespace cnp::wb {

using namespace cnp::timeline;

namespace {

// The row of `rank` holding a segment: its CPU thread, or its GPU device's stream. -1 when absent.
int rowOf(const TimelineModel& m, std::int32_t rank, const NamedSegment& s) {
    const bool gpu = s.stream >= 0;
    for (int r = 0; r < static_cast<int>(m.rows.size()); ++r) {
        const TimelineRow& row = m.rows[static_cast<std::size_t>(r)];
        if (row.rank != rank)
            continue;
        if (gpu && row.kind == RowKind::GpuStream && row.stream == s.stream &&
            (row.device < 0 || row.device == s.device))
            return r;
        if (!gpu && row.kind == RowKind::CpuThread && row.tid == s.tid)
            return r;
    }
    return -1;
}

// The event of `row` spanning exactly [start, end], in any lane; invalid when absent.
EventRef eventIn(const TimelineModel& m, int row, Ns start, Ns end) {
    const auto& lanes = m.rows[static_cast<std::size_t>(row)].lanes;
    for (int l = 0; l < static_cast<int>(lanes.size()); ++l) {
        const EventTrack& tr = lanes[static_cast<std::size_t>(l)];
        for (std::size_t i = tr.firstStartingAtOrAfter(start); i < tr.size() && tr.start(i) == start; ++i)
            if (tr.end(i) == end)
                return {row, l, static_cast<std::uint32_t>(i)};
    }
    return {};
}

} // namespace

CriticalPathMarks::CriticalPathMarks(const TimelineModel& model, const RankCriticalPath& path)
    : rank_(path.rank) {
    marks_.reserve(path.segments.size());
    for (const NamedSegment& s : path.segments) {
        PathMark mark;
        mark.start = s.segment.start;
        mark.end = s.segment.end;
        mark.kind = s.segment.kind;
        mark.row = rowOf(model, path.rank, s);
        if (mark.row >= 0 && s.eventEnd >= s.eventStart) {
            mark.event = eventIn(model, mark.row, s.eventStart, s.eventEnd);
            mark.lane = mark.event.valid() ? mark.event.lane : 0;
        }
        marks_.push_back(mark);
    }
}

int CriticalPathMarks::longestOf(PathKind kind) const {
    int best = -1;
    for (int i = 0; i < static_cast<int>(marks_.size()); ++i) {
        const PathMark& m = marks_[static_cast<std::size_t>(i)];
        if (m.kind != kind)
            continue;
        if (best < 0 || m.end - m.start > marks_[static_cast<std::size_t>(best)].end -
                                              marks_[static_cast<std::size_t>(best)].start)
            best = i;
    }
    return best;
}

} // namespace cnp::wb
