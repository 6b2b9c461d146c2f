#pragma once
// Summaries precomputed at ingest (and rebuilt by `cnp reclassify`) so that every analysis command
// reads small tables instead of rescanning raw events. Tables: docs/schema.md, "Summary tables".
//   summary_rank       per (run, rank): event counts, kernel time, whole-window breakdown, launch stats
//   summary_step       per (run, rank, step): CPU range, GPU window, breakdown
//   summary_exclusive  per (run, rank, step or -1 = whole window, category): exclusive ns
//   summary_kernel     per (run, rank or -1 = all ranks, kernel name): cuda_gpu_kern_sum columns
//   summary_gap        per (run, rank): every GPU idle gap >= 10 us and what the CPU was doing
//   summary_sync       per (run, rank): CPU-blocking stream/event synchronisations inside steps
#include "core/SummaryRows.h"
#include "core/TraceData.h"
#include "metrics/CategoryRules.h"

namespace cnp {

// The summary rows of one run into `out` (the store's SummaryRowBuffers binds them for writing, while
// another thread inserts the events). `trace`: normalised and categorised (with `rules`), steps detected.
// Pure: no I/O. O(n log n). requests/SummaryRequests.h builds and stores them for a stored run.
void computeRunSummaries(const TraceData& trace, const CategoryRules& rules, SummaryRowSink& out);

} // namespace cnp
