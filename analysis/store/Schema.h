#pragma once
// The workspace schema, version 1 (docs/schema.md describes every table and column).
// Event tables are plain rowid tables sorted by (run_id, rank, start_ns) at insert time; their
// (run_id, rank, start_ns) indexes are created after a bulk load into an empty table.
#include <string_view>
#include <vector>

namespace cnp::schema {

// CREATE TABLE statements of schema version 1 (idempotent: IF NOT EXISTS).
std::string_view createTablesSql();
// The secondary indexes; created after a bulk load (idempotent).
std::string_view createIndexesSql();
// Names of the indexes createIndexesSql() creates (dropped before a bulk load into empty tables).
const std::vector<std::string_view>& eventIndexNames();
// The event tables that hold a run_id column and are deleted with a run.
const std::vector<std::string_view>& perRunTables();

} // namespace cnp::schema
