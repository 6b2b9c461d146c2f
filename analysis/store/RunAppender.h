#pragma once
// Writes one run into a workspace part by part (a part: the TraceData of one or a few ranks), so that a
// run never has to be held in memory whole. Inside the caller's write Transaction:
//   RunAppender a(ws, name);   // the run's row, with its name (checked free) and provisional columns
//   a.append(part) ...         // each part's ranks, events and steps, parts in increasing rank order
//   a.finish(info);            // the run row's final columns and each event table's id range (run_rows)
// Invariant kept (docs/schema.md, "Event tables"): a run's rows of each event table have consecutive ids
// and are sorted by (rank, sort key), so the parts must come in increasing rank order (append throws
// std::logic_error otherwise: the caller orders its parts). A rollback of the transaction removes
// everything; nothing is visible before the commit.
#include "core/TraceData.h"
#include "store/Workspace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

class RunAppender {
public:
    // Throws InputError when the workspace is read-only or already has a run named `runName` (or with id
    // `id`, when given: a study's shard stores a run under its index id).
    RunAppender(Workspace& ws, const std::string& runName, std::optional<RunId> id = std::nullopt);

    RunId runId() const { return runId_; }

    // Appends the ranks, events (each table sorted by (rank, sort key): O(rows) when the part is
    // normalised, O(rows log rows) otherwise) and steps of `part`. Progress over the part's rows.
    void append(const TraceData& part, const ProgressSink& sink = {});

    // A study's two halves of append (docs/schema.md, "Studies of shards"). On the index: the part's ranks
    // and steps, its rows counted but its events stored elsewhere; returns the workspace string id of each
    // of the part's string ids (interned here).
    std::vector<std::int64_t> appendWithoutEvents(const TraceData& part);
    // On a shard: append, with the string ids the index gave (`ids`, one per part string id), which the
    // shard's `strings` table then holds too.
    void appendWithIds(const TraceData& part, const std::vector<std::int64_t>& ids,
                       const ProgressSink& sink = {});

    // A study's shard only (docs/schema.md, "Studies of shards"): records each event table's id range so
    // far, commits the caller's transaction on this connection, checkpoints the WAL (PASSIVE) and begins
    // the next write transaction (BEGIN IMMEDIATE), so the caller's Transaction goes on as before. The rows
    // committed are a shard run the index does not know yet: invisible to readers, and removed by
    // Workspace::removeOrphanShardRuns should the ingest not finish. Spreads a shard's WAL copy (and its
    // fsync) over the ingest instead of leaving all of it for after the commit. O(dirty pages).
    void commitSoFar();

    // A study assembled from shards (ingest/StudyAssembler.h): the kernel and event rows the run's shards
    // hold, counted in the run row though none is appended here.
    void countStoredElsewhere(std::int64_t kernels, std::int64_t events) {
        kernels_ += kernels;
        events_ += events;
    }

    // Rewrites the run row from `info` (name included) with the kernel and event counts of every part,
    // and records each event table's id range. Call once, after the last part.
    void finish(const RunInfo& info);

    std::int64_t eventCount() const { return events_; }

private:
    void checkRankOrder(const TraceData& part);
    void writeIdRanges(); // run_rows from spans_, replacing what commitSoFar wrote
    void write(const TraceData& part, const std::vector<std::int64_t>& ids, bool events,
               const ProgressSink& sink);

    struct IdSpan {
        std::int64_t first = 0, last = 0;
    };
    Workspace& ws_;
    RunId runId_;
    std::map<std::string, IdSpan> spans_; // event table -> the run's ids so far
    std::int64_t kernels_ = 0, events_ = 0;
    std::int32_t maxRank_ = -1;
    bool anyRank_ = false;
};

} // namespace cnp
