#pragma once
// The workspace schema, version 4: every table is described once in store/Tables.h (the DDL is
// generated from it); docs/schema.md documents them and tst_schemadoc keeps the two in step.
// Event tables have no secondary index. Their `id INTEGER PRIMARY KEY` is the clustering key, and
// the invariant every writer keeps is: a run's rows of an event table are exactly the ids
// [first_id, last_id] recorded in run_rows, sorted by (rank, sort key) — the sort key being start_ns
// (ts_ns for counters, correlation for flows). A run's events are therefore one contiguous B-tree range
// (read sequentially) and a (rank, key) lookup is a binary search over ids (Workspace::lowerBoundId).
#include "core/EventKind.h"

#include <string_view>
#include <vector>

namespace cnp::schema {

// CREATE TABLE statements of the current schema version (idempotent: IF NOT EXISTS).
std::string_view createTablesSql();

struct EventTable {
    std::string_view name;
    std::string_view sortKey; // rows of a run are sorted by (rank, sortKey)
    std::string_view columns; // every column but id, in table order (the v1 table's columns)
};
// The event tables with an id range per run in run_rows.
const std::vector<EventTable>& eventTables();
// The event table named `name`, nullptr when it is not one.
const EventTable* findEventTable(std::string_view name);
// The event tables whose rows span [start_ns, end_ns) (kernels, memcpys, memsets, api_calls, cpu_ranges,
// gpu_annotations), in eventTables() order: every event table but flows and counters.
const std::vector<std::string_view>& spanEventTables();
// The table a kind of event is stored in (its description in store/Tables.h): kernels, memcpys,
// memsets, api_calls, cpu_ranges, gpu_annotations, steps.
std::string_view eventTableOf(EventKind kind);
// Every table with a run_id column (rows deleted with their run): the event tables, then the others.
const std::vector<std::string_view>& perRunTables();

} // namespace cnp::schema
