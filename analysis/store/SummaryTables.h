#pragma once
// Upkeep of the summary tables (docs/schema.md, "Summary tables"): creating them (and the columns
// they gained after their first release), deleting one run's rows, and the presence checks their
// readers make on workspaces written before a table or column existed.
#include "core/Ids.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

struct sqlite3;

namespace cnp {

class Workspace;

// Creates the summary tables when missing and adds the columns an older table lacks. Idempotent.
void ensureSummaryTables(Workspace& ws);
// Adds to each existing summary table the described columns it lacks (ALTER TABLE ... ADD COLUMN; their
// rows read as NULL until `cnp reclassify` rebuilds them). Tables that do not exist stay absent.
void addMissingSummaryColumns(sqlite3* db);
// Sets summary_step's and summary_rank's launch_bound_idle_ns from the stored launch-bound gaps (the
// v3 -> v4 migration; ingest computes the same sums from the same gaps). No-op without summary tables.
void fillLaunchBoundIdle(sqlite3* db);
// The column names `table` has ({} when there is no such table). One PRAGMA query.
std::set<std::string, std::less<>> columnsOf(const Workspace& ws, std::string_view table);
// Whether the workspace has a table named `table`.
bool hasTable(const Workspace& ws, std::string_view table);
// Whether run `runId` has summary rows (summary_rank exists and holds a row of the run).
bool runHasSummaries(const Workspace& ws, RunId runId);
// Deletes every summary row of one run (creating the tables first when missing).
void deleteRunSummaries(Workspace& ws, RunId runId);

} // namespace cnp
