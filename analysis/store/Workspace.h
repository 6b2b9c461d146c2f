#pragma once
// A workspace: one SQLite file (*.cnpdb) holding many runs. Schema: docs/schema.md.
// Opened in WAL mode so a reader (the GUI) can read while another process (the CLI) ingests.
// All writes go through a Transaction: a failed or cancelled ingest leaves no trace of itself.
#include "core/IdRange.h"
#include "core/InputError.h"
#include "core/ProgressSink.h"
#include "core/RunRecord.h"
#include "core/TraceData.h"
#include "store/Sqlite.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cnp {

class QueryWatchdog;
class LinkedEventShards;
class StudyShards;
class Workspace;

// Where some of a run's rows of one event table are: ids `rows` of that table in workspace `store` (the
// workspace itself, or a shard of its study). The rows of a segment are sorted by (rank, sort key).
struct EventSegment {
    const Workspace* store = nullptr;
    IdRange rows;
};

// Thrown when a writing mode meets a workspace that cannot be written (read-only file, folder or mount);
// the same workspace opens with Mode::ReadOnly.
class ReadOnlyWorkspace : public InputError {
public:
    ReadOnlyWorkspace(const std::string& path, const std::string& cause)
        : InputError(path, "workspace is read-only (" + cause + ")") {}
};

class Workspace {
public:
    enum class Mode { ReadOnly, ReadWrite, CreateIfMissing };
    static constexpr int kSchemaVersion = 4;
    // The longest one SQLite call may compute without returning a row before it is interrupted.
    static constexpr std::chrono::milliseconds kQueryBudget{60000};

    // Throws InputError naming the file when it is not a workspace, has a newer schema, is corrupt or holds
    // objects the schema does not define (triggers, views, virtual tables: docs/errors.md); throws
    // ReadOnlyWorkspace when `mode` writes and the workspace cannot be written. Every connection runs with
    // SQLite's defences on (defensive mode, untrusted schema, no triggers, views or ATTACH) and a
    // QueryWatchdog: the process-wide interrupt flag (Ctrl-C) or kQueryBudget interrupts any query.
    //
    // `path` may name a study folder (store/StudyFolder.h: a folder holding cnp-study.json, or a path
    // ending in ".cnpstudy" to create one with a single shard): the workspace is then its index, and the
    // events of its runs are read from (and written to) its shards, each opened in `mode`.
    Workspace(const std::string& path, Mode mode);
    ~Workspace();
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    sqlite3* db() const { return db_; }
    // What the workspace was opened as (a study: its folder); the SQLite file is file().
    const std::string& path() const { return path_; }
    const std::string& file() const { return file_; }
    int schemaVersion() const;
    bool readOnly() const { return readOnly_; }
    // Replaces kQueryBudget for this connection (tests use a short one).
    void setQueryBudget(std::chrono::milliseconds budget);

    // Runs in plan order: configurations ordered by the workspace's plan (meta key "plan_order",
    // a comma-separated list) then by first ingest; within a configuration by repeat then name.
    std::vector<RunRecord> runs() const;
    std::optional<RunRecord> findRun(const std::string& name) const;
    std::optional<RunRecord> findRun(RunId runId) const;
    RunRecord runOrThrow(const std::string& name) const; // InputError "no run named ..."
    RunRecord runOrThrow(RunId runId) const;             // InputError "run id ... is no longer ..."
    // "'NAME'" (control characters escaped) of run `runId`, or "id N" when it has no row: how messages
    // name a run.
    std::string runLabel(RunId runId) const;
    std::vector<std::string> planOrder() const; // configuration labels in plan order
    void setPlanOrder(const std::vector<std::string>& configs);

    // Inserts `trace` as a new run (store/RunAppender, one part). Must be called inside a Transaction.
    // Returns the run id. O(events) when `trace` is normalised (IngestPipeline), else O(events log events):
    // each event table is stored sorted by (rank, sort key).
    RunId insertRun(const TraceData& trace, const ProgressSink& sink = {});

    // Run edits, by name (the CLI's arguments) or by id (a run picked from a run list). InputError when
    // the run does not exist, `to` is empty or taken, or `config` is empty.
    void removeRun(const std::string& name);
    void removeRun(RunId runId);
    // removeRun's deletes without its transaction (the caller's write transaction holds them).
    void deleteRunRows(RunId runId);
    void renameRun(const std::string& from, const std::string& to);
    void renameRun(RunId runId, const std::string& to);
    void relabelRun(const std::string& name, const std::string& config);
    void relabelRun(RunId runId, const std::string& config);

    // The ids of `runId`'s rows in event table `table` (schema::eventTables()); empty when it has none.
    // Query a run's events with `WHERE id BETWEEN first AND last`: a sequential range of the table.
    // run_rows is untrusted (a crafted range once made `reclassify --reset` rewrite a run with another
    // run's events): a stored range is returned only when first <= last, the rows `first` and `last`
    // exist and belong to the run, and no other run's range in the table overlaps it; otherwise
    // InputError naming the workspace, the table, the run and the cause. Cost: O(log n) row lookups and
    // one pass over the table's run_rows entries (one per run).
    IdRange eventRows(RunId runId, std::string_view table) const;

    // A study's shards (0 when the workspace is a single file). A shard is a workspace of its own holding
    // the event rows of some ranks of each run, under the run's id in this workspace and with its string
    // ids (docs/schema.md, "Studies of shards").
    bool isStudy() const { return shardCount() > 0; }
    int shardCount() const;
    Workspace& shard(int k);
    // The connections a write transaction spans: the shards' then this workspace's (committed last).
    std::vector<sqlite3*> writeConnections() const;
    // A study: copies its shards' write-ahead logs into their files, `threads` at a time (StudyShards.h);
    // nothing for a single file. After a commit.
    void checkpointShards(unsigned threads);
    // Removes from the shards every run the index does not have: what an ingest interrupted between the
    // shards' commits and the index's left behind. Inside the caller's write transaction.
    void removeOrphanShardRuns();

    // Run `runId`'s rows of event table `table` wherever they are stored, in (rank, sort key) order: a
    // single file gives one segment (eventRows); a study one per run of consecutive ranks held by one
    // shard. Empty segments are left out. O(ranks x log rows) for a study, else as eventRows. A run added
    // from summary files (events.elsewhere) is read from its fetched shards (store/LinkedEventShards.h)
    // and throws EventsElsewhere (core/EventsElsewhere.h) for what was not fetched.
    std::vector<EventSegment> eventSegments(RunId runId, std::string_view table) const;
    // The workspace holding `rank`'s rows of `table` for run `runId` and that workspace's whole id range of
    // the run's rows (to search with its lowerBoundId). A rank no shard holds gives an empty range.
    EventSegment eventStoreOf(RunId runId, std::int32_t rank, std::string_view table) const;
    // Exactly `rank`'s rows of run `runId` in `table` (eventStoreOf, then two lowerBoundId searches); an
    // empty range when it has none. O(log rows).
    EventSegment rankRows(RunId runId, std::int32_t rank, std::string_view table) const;
    // First id in `range` whose (rank, sort key) is >= (rank, key), range.last + 1 when none.
    // Binary search over ids (the rows of a range are sorted by (rank, sort key)): O(log n) row reads.
    std::int64_t lowerBoundId(std::string_view table, IdRange range, std::int32_t rank,
                              std::int64_t key) const;

    // Reads a whole run back into memory (strings re-interned into the returned table). With `rank`, only
    // that rank's events, ranks row and steps: O(its events), and of a run added from summary files only
    // its shard is read (a one-rank export).
    TraceData loadRun(RunId runId, std::optional<std::int32_t> rank = std::nullopt) const;

    // Workspace-level string interning (table `strings`).
    std::int64_t internString(std::string_view s);
    std::string stringById(std::int64_t id) const;

    // Per-run key/value attributes (table `run_attributes`): what a run knows beyond its trace — the plan
    // it was launched from, the throughput its log reported. Keys are documented in docs/schema.md.
    std::map<std::string, std::string> runAttributes(RunId runId) const;
    std::optional<std::string> runAttribute(RunId runId, const std::string& key) const;
    void setRunAttribute(RunId runId, const std::string& key, const std::string& value);
    void eraseRunAttribute(RunId runId, const std::string& key);

    // Key/value metadata (table `meta`).
    std::optional<std::string> meta(const std::string& key) const;
    void setMeta(const std::string& key, const std::string& value);

private:
    Mode openStudy(Mode mode); // returns the mode its index is opened in
    void open(Mode mode);
    void openConnection(Mode mode, bool immutable);
    void checkWritable();
    void configureWriter(bool fresh);
    void upgradeIfOlder();
    void closeConnection();
    void createSchema();
    void migrate(int from);
    RunRecord readRunRow(Statement& st) const;

    sqlite3* db_ = nullptr;
    std::string path_, file_;
    bool readOnly_ = false;
    std::unique_ptr<QueryWatchdog> watchdog_;
    std::unique_ptr<StudyShards> study_;
    // Runs added from summary files whose events are read from linked shards, by run id (first read).
    const LinkedEventShards& linkedShards(RunId runId) const;
    mutable std::map<std::int64_t, std::unique_ptr<LinkedEventShards>> linked_;
};

} // namespace cnp
