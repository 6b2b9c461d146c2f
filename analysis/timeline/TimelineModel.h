#pragma once
// Everything the timeline view draws for one run: rows (each with one or more non-overlapping lanes,
// see EventTrack) grouped per rank -> GPU / CPU, the name and style tables, steps and the run's span.
// Built off the GUI thread by TimelineBuilder (from a workspace: TimelineLoader); immutable afterwards
// except for the groups' collapsed flags. Row order: per rank (ascending) the steps row, then per GPU
// (ascending) its annotation row, its stream rows (ascending stream) and its counter rows, then the
// CPU threads (ascending pid, tid). Clusters (more than kExpandedRanks ranks) also get a
// GPU-busy row per rank after its steps row, and every rank group but the first starts collapsed.
#include "core/Ids.h"
#include "core/TraceData.h"
#include "timeline/EventTrack.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp::timeline {

// GpuBusy: a rank's GPU-busy summary (the union of all its GPU activity), built for clusters only
// (kExpandedRanks); it stays visible when its rank's group is collapsed.
// Runs with more ranks than this get per-rank GPU-busy rows and start with every rank group after the
// first collapsed, so 16 and more ranks fit on a screen.
inline constexpr std::size_t kExpandedRanks = 4;

enum class RowKind : std::uint8_t { Steps, GpuAnnotations, GpuStream, Counter, CpuThread, GpuBusy };
// The highest RowKind: stored overviews are validated against it (keep it the last enumerator).
inline constexpr RowKind kLastRowKind = RowKind::GpuBusy;

// Samples of one counter (e.g. memory in use), sorted by time; the value holds until the next sample.
struct CounterSeries {
    std::vector<Ns> ts;
    std::vector<double> value;
    double minValue = 0, maxValue = 0;
};

struct TimelineRow {
    RowKind kind = RowKind::GpuStream;
    std::string label;
    int group = -1; // innermost group holding the row
    std::int32_t rank = 0, device = -1;
    std::int64_t stream = -1, pid = 0, tid = 0;
    std::vector<EventTrack> lanes; // lane k = nesting depth k
    CounterSeries counter;         // RowKind::Counter only
    std::size_t eventCount() const;
    // The same row without its events: kind, label, group and identity; no lanes, no counter samples.
    TimelineRow header() const;
};

struct TimelineGroup {
    std::string label;
    int parent = -1; // -1: top level (a rank)
    int depth = 0;
    std::int32_t rank = 0;
    bool collapsed = false;
};

// One line of the vertical layout: a group header or a row, at y (pixels from the top of the rows).
struct LayoutItem {
    bool isGroup = false;
    int index = 0; // group or row index
    int y = 0, height = 0;
    int depth = 0; // indentation level of the label
};

class TimelineModel {
public:
    RunId runId;
    std::string runName;
    Ns runStart = 0, runEnd = 0; // earliest start / latest end over every row
    std::vector<TimelineRow> rows;
    std::vector<TimelineGroup> groups;
    std::vector<std::string> names;  // name id -> text; id 0 = ""
    std::vector<std::string> styles; // style id -> category ("gemm", "memory", ...) or CPU kind name
    std::vector<StepRange> steps;    // every rank's steps, sorted by (rank, index)

    std::size_t eventCount() const;
    // Bytes held by the rows' arrays and tables (the resident cost of the timeline).
    std::size_t memoryBytes() const;
    // The rows and group headers to draw, top to bottom; rows inside a collapsed group are left out.
    // Row height = max(1, lanes) * laneHeight (counters: 2 lanes). O(rows + groups).
    std::vector<LayoutItem> layout(int laneHeight, int headerHeight) const;
    // No collapsed ancestor; a GpuBusy row only needs its group's ancestors expanded (it is the collapsed
    // rank's summary).
    bool isRowVisible(int row) const;
    // With more than `expanded` ranks, collapses every rank group but the first (the default view of a
    // cluster run; TimelineBuilder and the stored overview both apply it). O(groups).
    void collapseRanksBeyond(std::size_t expanded);
    int findStyle(const std::string& name) const; // -1 when absent
    // Rows of `rank` (in row order).
    std::vector<int> rowsOfRank(std::int32_t rank) const;
};

} // namespace cnp::timeline
