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
#include "store/SummaryRowBuffers.h"
#include "store/SummaryTables.h"
#include "store/Workspace.h"

#include <cstdint>

namespace cnp {

// The summary rows of one run, computed without the database (so an ingest computes them while another
// thread inserts the events) and written by writeRunSummaries.
// Each row is bound column by column through its table description (store/SummaryRowBuffers.h).
using RunSummaryRows = SummaryRowBuffers;

// `trace`: normalised and categorised (with `rules`), steps detected. Pure: no I/O. O(n log n).
RunSummaryRows computeRunSummaries(const TraceData& trace, const CategoryRules& rules);
// Replaces run `runId`'s summaries with `rows`.
void writeRunSummaries(Workspace& ws, std::int64_t runId, const RunSummaryRows& rows);
// Both of the above: `trace` must be the normalised, categorised trace stored as run `runId`.
void buildRunSummaries(Workspace& ws, std::int64_t runId, const TraceData& trace);

// Re-categorises run `runId` with the workspace's current rules (updating the stored kernel
// categories) and rebuilds its summaries, without re-reading any source file.
void rebuildRunSummaries(Workspace& ws, std::int64_t runId);

// ensureSummaryTables, deleteRunSummaries: store/SummaryTables.h.

} // namespace cnp
