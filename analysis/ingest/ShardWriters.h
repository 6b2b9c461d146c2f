#pragma once
// The event writers of a study's ingest (docs/schema.md, "Studies of shards"): one thread per shard, each
// storing through its own RunAppender, on its own SQLite connection, the parts handed to it, in the order
// they were handed (increasing rank: RunAppender's invariant per shard). Part k of the run goes to shard
// k mod shards, so consecutive parts are written in parallel. Each shard holds at most one part waiting
// besides the one it writes: hand() blocks until there is room, which bounds the memory held here to two
// parts per shard. The caller's write transaction spans the shards (Workspace::writeConnections); the
// threads only use the connections between hand() and finish(). A writer commits its shard every
// kCommitEveryEvents events (RunAppender::commitSoFar: a shard run the index does not know, removed if the
// ingest fails) and checkpoints it, so the shards' WAL copies and disk writes run during the ingest, beside
// the readers, rather than all after the commit.
#include "core/TraceData.h"
#include "ingest/PreparedPart.h"
#include "store/RunAppender.h"
#include "store/Workspace.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cnp {

class ShardWriters {
public:
    // About 50 MB of a shard's pages (event rows take 40-60 bytes each with their B-tree).
    static constexpr std::int64_t kCommitEveryEvents = 1'000'000;

    // Creates run `runId` in each shard of `study` (named "<id>:<runName>", so that the index's renames
    // never collide with a shard's names). `stored(bytes)` is called on a writer thread after each part
    // is stored and freed, with the input bytes hand() was given for it.
    ShardWriters(Workspace& study, RunId runId, const std::string& runName,
                 std::function<void(std::uint64_t)> stored);
    ~ShardWriters(); // stops the writers (what they had not stored is dropped) and joins them
    ShardWriters(const ShardWriters&) = delete;
    ShardWriters& operator=(const ShardWriters&) = delete;

    // Hands part `k` (its events; `ids`: the index's string ids of its strings) to shard k mod shards.
    // Rethrows the first error of a writer.
    void hand(std::size_t k, std::unique_ptr<PreparedPart> part, std::vector<std::int64_t> ids,
              std::uint64_t bytes);
    // Waits for every part to be stored, then writes each shard's run row (`info`) and id ranges.
    // Rethrows the first error of a writer.
    void finish(const RunInfo& info);
    // Kernel rows and all event rows stored so far, over the shards (after finish: the run's).
    std::int64_t events() const;

private:
    struct Job {
        std::unique_ptr<PreparedPart> part;
        std::vector<std::int64_t> ids;
        std::uint64_t bytes = 0;
    };
    struct Writer {
        std::unique_ptr<RunAppender> appender;
        std::deque<Job> queue;
        bool busy = false;
        std::int64_t uncommitted = 0; // events appended since the last commitSoFar (writer thread only)
        std::thread thread;
    };
    void work(Writer& w);
    void rethrowError(); // requires m_

    std::function<void(std::uint64_t)> stored_;
    std::vector<std::unique_ptr<Writer>> writers_;
    std::mutex m_;
    std::condition_variable changed_;
    std::exception_ptr error_;
    std::atomic<bool> stop_{false};
    std::string runName_;
};

} // namespace cnp
