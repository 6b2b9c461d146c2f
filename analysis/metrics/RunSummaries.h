#pragma once
// Summaries precomputed at ingest (and rebuilt by `cnp reclassify`) so that every analysis command
// reads small tables instead of rescanning raw events. Tables: docs/schema.md, "Summary tables".
//   summary_rank       per (run, rank): event counts, kernel time, whole-window breakdown, launch stats
//   summary_step       per (run, rank, step): CPU range, GPU window, breakdown
//   summary_exclusive  per (run, rank, step or -1 = whole window, category): exclusive ns
//   summary_kernel     per (run, rank or -1 = all ranks, kernel name): cuda_gpu_kern_sum columns
//                      (metrics/KernelStat.h); the all-rank rows by metrics/KernelStatsPool.h
//   summary_gap        per (run, rank): every GPU idle gap >= 10 us and what the CPU was doing
//   summary_sync       per (run, rank): CPU-blocking stream/event synchronisations inside steps
//   summary_stream     per (run, rank, device, stream): work by kind, top compute kernel, launch queue
#include "core/SummaryRows.h"
#include "core/TraceData.h"
#include "metrics/CategoryRules.h"

namespace cnp {

class KernelStatsPool;

// Choices that change what the summaries count (docs/metrics.md, "Steps and windows").
struct SummaryOptions {
    // Step windows count only launched GPU work by default: orphan work (launched before the capture,
    // OrphanSummary) running inside a step's GPU window is left out of its breakdown and exclusive time.
    // True: counted like any other work (workspace meta steps_include_orphans, `cnp reclassify
    // --step-orphans include`).
    bool stepsIncludeOrphans = false;
};

// The summary rows of one run into `out` (the store's SummaryRowBuffers binds them for writing, while
// another thread inserts the events). `trace`: normalised and categorised (with `rules`), steps detected.
// Rows of each table in rank order; the all-rank summary_kernel rows (rank -1) last, in kernel name order.
// No I/O but the all-rank rows' spill file when a run's kernel durations exceed KernelStatsPool's default
// budget (256 MiB, 32 M kernels). O(n log n). requests/SummaryRequests.h builds and stores them for a
// stored run.
void computeRunSummaries(const TraceData& trace, const CategoryRules& rules, SummaryRowSink& out,
                         const SummaryOptions& options = {});

// The same for one part of a run (some of its ranks, e.g. one trace file's): every row but the all-rank
// summary_kernel rows, whose (rank, kernel name) duration groups go to `allRanks` instead; after the last
// part, allRanks->write(out) writes those rows, the same (bit for bit) as the whole run's in one call
// whatever the split, provided no rank is split between parts. Parts may run on several threads at once
// into one pool. `allRanks` null: the form without a pool.
void computeRunSummaries(const TraceData& trace, const CategoryRules& rules, SummaryRowSink& out,
                         KernelStatsPool* allRanks, const SummaryOptions& options = {});

} // namespace cnp
