#pragma once
// Collects a run's events in any order and builds a TimelineModel: one row per (rank, device, stream),
// per (rank, device) GPU annotations, per (rank, pid, tid) CPU thread (API calls and CPU ranges
// together), per rank steps, per (rank, device, counter name) counter. Within a row, events are sorted
// by (start, end descending) and assigned lanes by nesting: an event goes to lane d = number of
// still-open events it starts inside, so a lane never holds overlapping events (EventTrack's invariant)
// and CPU ops appear under their parents. O(n log n) time; 24 bytes per event until build().
#include "core/TraceData.h"
#include "store/Workspace.h"
#include "timeline/TimelineModel.h"

#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace cnp::timeline {

// When build() adds the per-rank GPU-busy rows (TimelineModel.h): ClustersOnly = when the model has more
// than kExpandedRanks ranks (the view's rule); Always = for every rank with GPU stream events, for a part
// of a run (a few of its ranks) whose final rank count is not known yet (OverviewMerge.h drops them again
// when the merged run turns out to be small).
enum class BusyRows : std::uint8_t { ClustersOnly, Always };

class TimelineBuilder {
public:
    TimelineBuilder();

    // Interns a display name / a style (category or kind name); id 0 = "".
    std::uint32_t internName(std::string_view name);
    std::uint8_t internStyle(std::string_view style);
    // For loaders that resolve names later: reserves a name id whose text is set with setName().
    std::uint32_t addNameSlot();
    void setName(std::uint32_t id, std::string text);

    void addGpuEvent(std::int32_t rank, std::int32_t device, std::int64_t stream, EventKind kind, Ns start,
                     Ns end, std::uint32_t name, std::uint8_t style);
    void addGpuAnnotation(std::int32_t rank, std::int32_t device, Ns start, Ns end, std::uint32_t name);
    void addCpuEvent(std::int32_t rank, std::int64_t pid, std::int64_t tid, EventKind kind, Ns start, Ns end,
                     std::uint32_t name, std::uint8_t style);
    void addStep(const StepRange& step); // name: the step's StringId must be an id of this builder
    void addCounterSample(std::int32_t rank, std::int32_t device, std::uint32_t name, Ns ts, double value);
    void setRankLabel(std::int32_t rank, std::string label); // e.g. "Rank 0 · host"
    void setGpuLabel(std::int32_t rank, std::int32_t device, std::string label);

    void setBusyRows(BusyRows rule) { busyRows_ = rule; } // default ClustersOnly

    // Builds the model (checks `sink`'s cancel flag between rows). Leaves the builder empty (and the
    // busy-row rule back at ClustersOnly).
    TimelineModel build(const ProgressSink& sink = {});

    // Style name of a CPU range kind ("cpu_op", "user_annotation", ...; never a kernel category name).
    static const char* cpuRangeStyle(CpuRangeKind k);

    // Every kernel, memcpy, memset, GPU annotation, API call, CPU range, step and counter of `trace`.
    static TimelineModel fromTrace(const TraceData& trace, const ProgressSink& sink = {},
                                   BusyRows busyRows = BusyRows::ClustersOnly);

private:
    struct RawEvent {
        Ns start, end;
        std::uint32_t name;
        std::uint8_t style;
        EventKind kind;
    };
    // (rank, section, a, kind, b): section 0 = steps, 1 = GPU (a = device; b = stream for streams, counter
    // name for counters), 2 = CPU (a = pid, b = tid). Map order = row order.
    using RowKey = std::tuple<std::int32_t, int, std::int64_t, int, std::int64_t>;
    std::vector<RawEvent>& rowEvents(const RowKey& key);
    static void buildLanes(std::vector<RawEvent>& events, TimelineRow& row);
    // Adds one GpuBusy row per rank: the union of the rank's GPU stream events. O(n log n).
    void addBusyRows();
    // Where build() stands in the group tree: the current rank's group and section (GPU device or CPU).
    struct GroupCursor {
        std::int32_t rank = 0;
        int rankGroup = -1; // -1 until the first row
        int sectionGroup = -1;
        int section = -1;
        std::int64_t sectionKey = -1;
    };
    // Opens the rank group and section group `key` belongs to when it starts a new one.
    void placeGroups(TimelineModel& m, const RowKey& key, GroupCursor& at) const;
    // The row of `key` with its kind, identity, label and group; no events yet.
    TimelineRow emptyRow(const RowKey& key, const GroupCursor& at) const;
    static void fillCounter(std::vector<std::pair<Ns, double>>& samples, TimelineRow& row); // sorts samples
    static void extendRunSpan(TimelineModel& m, const TimelineRow& row); // runStart/runEnd over the row

    std::vector<std::string> names_;
    std::unordered_map<std::string, std::uint32_t> nameIndex_;
    std::vector<std::string> styles_;
    std::map<RowKey, std::vector<RawEvent>> events_;
    std::map<RowKey, std::vector<std::pair<Ns, double>>> counters_;
    std::vector<StepRange> steps_;
    std::map<std::int32_t, std::string> rankLabels_;
    std::map<std::pair<std::int32_t, std::int32_t>, std::string> gpuLabels_;
    // One-entry cache: consecutive events usually go to the same row.
    RowKey lastKey_{-1, -1, 0, -1, 0};
    std::vector<RawEvent>* lastRow_ = nullptr;
    BusyRows busyRows_ = BusyRows::ClustersOnly;
};

} // namespace cnp::timeline
