#pragma once
// Point lookups of single stored events of one run, for the timeline's details pane. Every lookup is a
// binary search over the run's id range of one table (rows sorted by (rank, sort key): start_ns, flows
// by correlation; docs/schema.md) followed by a short scan of the rows at that key: O(log n) row reads,
// except the correlation scans without a start (O(rows of the rank)). Absent rows read as nullopt.
#include "core/EventKind.h"
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

struct sqlite3;

namespace cnp {

class Workspace;

class EventLookup {
public:
    // A kernel's launch configuration and correlation id.
    struct Kernel {
        std::int64_t correlation = 0;
        std::int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
        std::int32_t registers = 0, staticSmem = 0, dynamicSmem = 0;
    };
    // A memcpy (value = MemcpyKind) or memset (value = the byte value set).
    struct Memory {
        std::int64_t correlation = 0, bytes = 0;
        std::int32_t value = 0;
    };
    struct ApiCall {
        std::int64_t correlation = 0;
        std::int32_t kind = 0; // ApiKind
    };
    struct CpuRange {
        std::int64_t correlation = 0;
        std::int32_t kind = 0, depth = 0; // CpuRangeKind
    };
    // The launch -> activity link of one correlation id.
    struct Flow {
        Ns cpu = 0, gpu = 0;
        std::int64_t tid = 0, stream = 0;
    };
    // The far end of a link: an API call (`key` = tid) or a GPU activity (`key` = stream).
    struct Linked {
        Ns start = 0, end = 0;
        std::int64_t key = 0;
        std::int64_t nameId = 0; // workspace string id
    };

    EventLookup(const Workspace& ws, RunId runId) : ws_(ws), runId_(runId) {}

    // The event starting at `start` on `rank` with the given row keys.
    std::optional<Kernel> kernelAt(std::int32_t rank, Ns start, std::int32_t device, std::int64_t stream,
                                   Ns end) const;
    std::optional<Memory> memoryAt(EventKind kind, std::int32_t rank, Ns start, std::int32_t device,
                                   std::int64_t stream) const; // kind Memcpy or Memset
    std::optional<ApiCall> apiCallAt(std::int32_t rank, Ns start, std::int64_t tid) const;
    std::optional<CpuRange> cpuRangeAt(std::int32_t rank, Ns start, std::int64_t tid, Ns end) const;

    std::optional<Flow> flow(std::int32_t rank, std::int64_t correlation) const;
    // The API call of `correlation` starting at `start`, or anywhere on the rank when `start` is nullopt.
    std::optional<Linked> apiCallOf(std::int32_t rank, std::int64_t correlation,
                                    std::optional<Ns> start) const;
    // The GPU activity of `correlation` in table `kind`, likewise.
    std::optional<Linked> activityOf(EventKind kind, std::int32_t rank, std::int64_t correlation,
                                     std::optional<Ns> start) const;

private:
    // Ids [first, second) of the run's rows in `table` of `rank` whose sort key is `key`, or all the
    // rank's rows when `key` is nullopt, in the workspace that holds them (a study: a shard), `db`.
    struct Rows {
        sqlite3* db = nullptr;
        std::int64_t first = 0, second = 0;
    };
    Rows rows(std::string_view table, std::int32_t rank, std::optional<std::int64_t> key) const;

    const Workspace& ws_;
    RunId runId_;
};

} // namespace cnp
