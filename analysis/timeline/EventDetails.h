#pragma once
// The full record of one timeline event, read from the workspace on demand (the timeline keeps only
// start, end, name and style in memory). Lookups are binary searches over the run's id range of each
// table, sorted by (rank, start_ns), flows by (rank, correlation): O(log n) row reads each (docs/schema.md).
// Also finds the launching API call of a
// GPU activity and the GPU activity launched by an API call (by correlation id).
#include "store/Workspace.h"
#include "timeline/TimelineModel.h"

#include <optional>
#include <string>

namespace cnp::timeline {

// Where an event lives in a TimelineModel.
struct EventRef {
    int row = -1, lane = 0;
    std::uint32_t index = 0;
    bool valid() const { return row >= 0; }
    bool operator==(const EventRef&) const = default;
};

struct EventDetails {
    EventKind kind = EventKind::Kernel;
    std::string name, category;
    Ns start = 0, end = 0;
    std::int32_t rank = 0, device = -1;
    std::int64_t stream = -1, pid = 0, tid = 0;
    std::int64_t correlation = 0;
    std::int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    std::int32_t registers = 0, staticSmem = 0, dynamicSmem = 0;
    std::int64_t bytes = -1; // memcpy / memset
    std::string extra;       // memcpy direction, CPU range kind, step index ...
    EventRef link;           // launching API call (GPU activity) or launched activity (API call)
    std::string linkName;    // its name, when found
    Ns linkStart = 0, linkEnd = 0;
    std::int64_t linkTid = 0, linkStream = -1;
};

// Reads the details of `ref`. Fields the workspace lacks keep their defaults.
EventDetails lookupEventDetails(const Workspace& ws, const TimelineModel& m, const EventRef& ref);

// The event of row kind `kind` on `rank` whose row key is `key` (stream for GPU streams, tid for CPU
// threads; -1 = any row of that kind on the rank) starting exactly at `start`; invalid when absent.
EventRef findEvent(const TimelineModel& m, std::int32_t rank, RowKind kind, std::int64_t key, Ns start);

} // namespace cnp::timeline
