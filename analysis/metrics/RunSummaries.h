#pragma once
// Summaries precomputed at ingest (and rebuilt by `cnp reclassify`) so that every analysis command
// reads small tables instead of rescanning raw events. Tables: docs/schema.md, "Summary tables".
//   summary_rank       per (run, rank): event counts, kernel time, whole-window breakdown, launch stats
//   summary_step       per (run, rank, step): CPU range, GPU window, breakdown
//   summary_exclusive  per (run, rank, step or -1 = whole window, category): exclusive ns
//   summary_kernel     per (run, rank or -1 = all ranks, kernel name): cuda_gpu_kern_sum columns
//   summary_gap        per (run, rank): every GPU idle gap >= 10 us and what the CPU was doing
//   summary_sync       per (run, rank): CPU-blocking stream/event synchronisations inside steps
// The writing functions must run inside the caller's Transaction; they create the tables if needed.
#include "core/TraceData.h"
#include "metrics/CategoryRules.h"
#include "store/RowBuffer.h"
#include "store/Tables.h"
#include "store/Workspace.h"

#include <cstdint>

namespace cnp {

// The summary rows of one run, computed without the database (so an ingest computes them while another
// thread inserts the events) and written by writeRunSummaries.
struct RunSummaryRows {
    // One INSERT of every column per table (store/Tables.h), bound positionally in table order.
    RowBuffer rank{schema::insertSql(schema::kSummaryRank)};
    RowBuffer step{schema::insertSql(schema::kSummaryStep)};
    RowBuffer exclusive{schema::insertSql(schema::kSummaryExclusive)};
    RowBuffer kernel{schema::insertSql(schema::kSummaryKernel)};
    RowBuffer gap{schema::insertSql(schema::kSummaryGap)};
    RowBuffer sync{schema::insertSql(schema::kSummarySync)};
};

// `trace`: normalised and categorised (with `rules`), steps detected. Pure: no I/O. O(n log n).
RunSummaryRows computeRunSummaries(const TraceData& trace, const CategoryRules& rules);
// Replaces run `runId`'s summaries with `rows`.
void writeRunSummaries(Workspace& ws, std::int64_t runId, const RunSummaryRows& rows);
// Both of the above: `trace` must be the normalised, categorised trace stored as run `runId`.
void buildRunSummaries(Workspace& ws, std::int64_t runId, const TraceData& trace);

// Re-categorises run `runId` with the workspace's current rules (updating the stored kernel
// categories) and rebuilds its summaries, without re-reading any source file.
void rebuildRunSummaries(Workspace& ws, std::int64_t runId);

// Creates the summary tables when missing (idempotent).
void ensureSummaryTables(Workspace& ws);
// Whether `table` has `column` (summary tables gain columns over time; readers of older workspaces
// read the missing ones as 0).
bool hasColumn(const Workspace& ws, std::string_view table, std::string_view column);
// Deletes every summary row of one run.
void deleteRunSummaries(Workspace& ws, std::int64_t runId);

} // namespace cnp
