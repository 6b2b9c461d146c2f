#pragma once
// Upkeep of the summary tables (docs/schema.md, "Summary tables"): creating them (and the columns
// summary_rank gained after its first release), deleting one run's rows, and the presence checks their
// readers make on workspaces written before a table or column existed.
#include "core/Ids.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace cnp {

class Workspace;

// Creates the summary tables when missing and adds summary_rank's later columns to an older table
// (their rows read as NULL until `cnp reclassify` rebuilds them). Idempotent.
void ensureSummaryTables(Workspace& ws);
// Whether `table` has `column` (summary tables gain columns over time).
bool hasColumn(const Workspace& ws, std::string_view table, std::string_view column);
// The column names `table` has ({} when there is no such table). One PRAGMA query.
std::set<std::string, std::less<>> columnsOf(const Workspace& ws, std::string_view table);
// Whether the workspace has a table named `table`.
bool hasTable(const Workspace& ws, std::string_view table);
// Whether run `runId` has summary rows (summary_rank exists and holds a row of the run).
bool runHasSummaries(const Workspace& ws, RunId runId);
// Deletes every summary row of one run (creating the tables first when missing).
void deleteRunSummaries(Workspace& ws, RunId runId);

} // namespace cnp
