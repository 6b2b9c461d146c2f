#include "store/RunAppender.h"

#include "core/UtcTime.h"
#include "store/BatchInserter.h"
#include "store/JsonText.h"
#include "store/Schema.h"
#include "store/StringInterner.h"
#include "store/Tables.h"

#include <algorithm>
#include <stdexcept>

namespace cnp {

namespace {

struct WorkspaceStringIds { // bind: trace string id -> workspace string id
    const std::vector<std::int64_t>& ids;
    std::int64_t stringId(StringId s) const { return ids[s]; }
};

// Inserts run `id`'s row (a null id: a fresh one) from `info` and the counts; returns its id. Every column
// but id is bound by name (schema::runsColumn), and a column left unbound is a logic error.
RunId insertRunRow(sqlite3* db, std::optional<RunId> id, const RunInfo& i, std::int64_t kernels,
                   std::int64_t events) {
    // Column k of the description is parameter k + 1 - first.
    const std::size_t first = id ? 0 : 1;
    Statement run(db, schema::insertSql(schema::kRuns, first));
    std::size_t bound = 0;
    auto put = [&](int column, const auto& v) {
        run.bind(column + 1 - static_cast<int>(first), v);
        ++bound;
    };
    using schema::runsColumn;
    if (id)
        put(runsColumn("id"), *id);
    put(runsColumn("name"), i.name);
    put(runsColumn("config"), i.config.empty() ? i.name : i.config);
    put(runsColumn("repeat"), i.repeat);
    put(runsColumn("source_format"), i.sourceFormat);
    put(runsColumn("source_files"), jsonArrayText(i.sourceFiles));
    put(runsColumn("host"), i.host);
    put(runsColumn("world_size"), i.worldSize);
    put(runsColumn("gpu_models"), jsonArrayText(i.gpuModels));
    put(runsColumn("driver_version"), i.driverVersion);
    put(runsColumn("cuda_version"), i.cudaVersion);
    put(runsColumn("cupti_version"), i.cuptiVersion);
    put(runsColumn("container_image"), i.containerImage);
    put(runsColumn("env"), jsonObjectText(i.env));
    put(runsColumn("synthetic"), i.synthetic ? 1 : 0);
    put(runsColumn("skipped_events"), i.skipped.count);
    put(runsColumn("first_skip_offset"), i.skipped.firstOffset);
    put(runsColumn("first_skip_reason"), i.skipped.firstReason);
    put(runsColumn("tokens_per_step"), i.tokensPerStep);
    put(runsColumn("flops_per_step"), i.flopsPerStep);
    put(runsColumn("peak_flops"), i.peakFlops);
    put(runsColumn("created_at"), utcNowIso8601());
    put(runsColumn("kernel_count"), kernels);
    put(runsColumn("event_count"), events);
    if (bound + first != std::size(schema::kRunsColumns))
        throw std::logic_error("RunAppender: the runs row binds " + std::to_string(bound) + " columns");
    run.exec();
    return RunId(sqlite3_last_insert_rowid(db));
}

// The workspace string id of each of the trace's string ids, interned into table `strings` as needed.
// O(unique strings x log workspace strings).
std::vector<std::int64_t> workspaceStringIdsOf(sqlite3* db, const StringTable& strings) {
    std::vector<std::int64_t> sid(strings.size());
    StringInterner interner(db);
    for (StringId k = 0; k < strings.size(); ++k)
        sid[k] = interner.intern(strings.at(k));
    return sid;
}

// The order that sorts `events` by `key`; empty when they are sorted already. O(n) if sorted, else
// O(n log n).
template <class Events, class Key> std::vector<std::uint32_t> sortedOrder(const Events& events, Key key) {
    std::vector<std::uint32_t> order;
    auto less = [&](const auto& a, const auto& b) { return key(a) < key(b); };
    if (std::is_sorted(events.begin(), events.end(), less))
        return order;
    order.resize(events.size());
    for (std::uint32_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return less(events[a], events[b]); });
    return order;
}

// Appends one part's rows of each event table with consecutive ids, sorted by (rank, sort key)
// (schema::eventTables()), returning their id span; progress over all of the part's rows.
class EventTableWriter {
public:
    EventTableWriter(sqlite3* db, RunId runId, const WorkspaceStringIds& ids, const ProgressSink& sink,
                     std::size_t totalRows)
        : db_(db), runId_(runId), ids_(ids), sink_(sink),
          total_(static_cast<double>(std::max<std::size_t>(1, totalRows))) {}

    // Each row's values are bound by its table's description (store/Tables.h). O(rows) when sorted.
    // Returns the ids given to the rows (first > last when there were none).
    template <class Desc, class Events, class Key>
    std::pair<std::int64_t, std::int64_t> insert(const Desc& desc, const Events& events, Key sortKey) {
        if (events.empty())
            return {1, 0};
        const std::string table(desc.name);
        const std::vector<std::uint32_t> sorted = sortedOrder(events, sortKey);
        const std::int64_t first = queryInt(db_, "SELECT COALESCE(MAX(id), 0) FROM " + table) + 1;
        auto at = [&](std::size_t k) -> const auto& {
            return events[sorted.empty() ? k : sorted[k]];
        };
        BatchInserter batch(db_, table, desc.valueColumns(), runId_);
        const int cols = batch.columns();
        if (cols != desc.kValueColumns)
            throw std::logic_error("RunAppender: " + table + " binds " + std::to_string(desc.kValueColumns) +
                                   " of " + std::to_string(cols) + " columns");
        for (std::size_t k = 0; k < events.size();) {
            const std::size_t rows = batch.rowsFor(events.size() - k);
            Statement& st = batch.statement(rows);
            for (std::size_t r = 0; r < rows; ++r)
                desc.bindRow(st, static_cast<int>(r) * cols, at(k + r), ids_);
            st.exec();
            k += rows;
            if ((k & 0xFFFF) < rows)
                progress(k);
        }
        const std::int64_t last = sqlite3_last_insert_rowid(db_);
        if (last - first + 1 != static_cast<std::int64_t>(events.size()))
            throw std::logic_error("RunAppender: ids of " + table + " are not contiguous");
        done_ += events.size();
        progress(0);
        return {first, last};
    }

private:
    void progress(std::size_t rowsOfThisTable) {
        sink_.checkCancel();
        sink_.report(static_cast<double>(done_ + rowsOfThisTable) / total_);
    }

    sqlite3* db_;
    RunId runId_;
    const WorkspaceStringIds& ids_;
    const ProgressSink& sink_;
    double total_;
    std::size_t done_ = 0; // rows of the tables already inserted
};

// Appending to tables without secondary indexes touches only each B-tree's rightmost path: a small page
// cache does (measured: no slower with 2 MiB than with 8 MiB), and keeps the ingest's peak memory low.
struct SmallCacheWhileAppending {
    sqlite3* db;
    std::int64_t before;
    explicit SmallCacheWhileAppending(sqlite3* d) : db(d), before(queryInt(d, "PRAGMA cache_size")) {
        execSql(db, "PRAGMA cache_size=-2048");
    }
    ~SmallCacheWhileAppending() {
        const std::string sql = "PRAGMA cache_size=" + std::to_string(before);
        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr); // a destructor must not throw
    }
};

} // namespace

RunAppender::RunAppender(Workspace& ws, const std::string& runName, std::optional<RunId> id) : ws_(ws) {
    if (ws.readOnly())
        throw InputError(ws.path(), "workspace opened read-only");
    if (ws.findRun(runName))
        throw InputError(ws.path(),
                         "a run named '" + runName + "' already exists (choose another --run name)");
    if (id && ws.findRun(*id))
        throw InputError(ws.file(), "a run with id " + std::to_string(id->value()) + " already exists");
    RunInfo provisional;
    provisional.name = runName;
    runId_ = insertRunRow(ws.db(), id, provisional, 0, 0);
}

void RunAppender::append(const TraceData& t, const ProgressSink& sink) {
    checkRankOrder(t);
    write(t, workspaceStringIdsOf(ws_.db(), t.strings), true, sink);
}

std::vector<std::int64_t> RunAppender::appendWithoutEvents(const TraceData& t) {
    checkRankOrder(t);
    std::vector<std::int64_t> ids = workspaceStringIdsOf(ws_.db(), t.strings);
    write(t, ids, false, {});
    return ids;
}

void RunAppender::appendWithIds(const TraceData& t, const std::vector<std::int64_t>& ids,
                                const ProgressSink& sink) {
    if (ids.size() != t.strings.size())
        throw std::logic_error("RunAppender::appendWithIds: one id per string expected");
    checkRankOrder(t);
    Statement copy(ws_.db(), "INSERT OR IGNORE INTO strings(id, value) VALUES(?, ?)");
    for (StringId k = 0; k < t.strings.size(); ++k)
        copy.bind(1, ids[k]).bind(2, std::string_view(t.strings.at(k))).exec();
    write(t, ids, true, sink);
}

void RunAppender::checkRankOrder(const TraceData& t) {
    if (!t.ranks.empty()) {
        const auto [lo, hi] = std::minmax_element(
            t.ranks.begin(), t.ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
        if (anyRank_ && lo->rank <= maxRank_)
            throw std::logic_error("RunAppender: part with rank " + std::to_string(lo->rank) +
                                   " after rank " + std::to_string(maxRank_));
        maxRank_ = hi->rank;
        anyRank_ = true;
    }
}

namespace {

// The part's collective_args rows (the table created with the first), beside its events. O(rows).
void writeCollectiveArgs(sqlite3* db, RunId runId, const TraceData& t, const WorkspaceStringIds& ids) {
    if (t.collectiveArgs.empty())
        return;
    execSql(db, schema::createCollectiveArgsSql());
    Statement args(db, schema::insertSql(schema::kCollectiveArgsTable));
    for (const auto& e : t.collectiveArgs) {
        args.bind(1, runId);
        schema::kCollectiveArgs.bindRow(args, 1, e, ids);
        args.exec();
    }
}

} // namespace

void RunAppender::write(const TraceData& t, const std::vector<std::int64_t>& sid, bool withEvents,
                        const ProgressSink& sink) {
    sqlite3* db = ws_.db();
    const WorkspaceStringIds ids{sid};
    Statement rank(db, schema::insertSql(schema::kRanks.table()));
    for (const auto& r : t.ranks) {
        rank.bind(1, runId_);
        schema::kRanks.bindRow(rank, 1, r, ids);
        rank.exec();
    }
    if (withEvents) {
        const SmallCacheWhileAppending smallCache(db);
        // The ingest pipeline hands the rows over sorted already (normaliseTrace); other callers get them
        // sorted here.
        EventTableWriter events(db, runId_, ids, sink, t.eventCount());
        auto record = [&](std::string_view table, std::pair<std::int64_t, std::int64_t> ids) {
            if (ids.first > ids.second)
                return;
            auto [it, fresh] = spans_.try_emplace(std::string(table), IdSpan{ids.first, ids.second});
            if (!fresh) {
                if (ids.first != it->second.last + 1)
                    throw std::logic_error("RunAppender: " + std::string(table) +
                                           " ids of the run are not contiguous");
                it->second.last = ids.second;
            }
        };
        auto byStart = [](const auto& e) { return std::pair<std::int32_t, Ns>(e.rank, e.start); };
        record(schema::kKernels.name, events.insert(schema::kKernels, t.kernels, byStart));
        record(schema::kMemcpys.name, events.insert(schema::kMemcpys, t.memcpys, byStart));
        record(schema::kMemsets.name, events.insert(schema::kMemsets, t.memsets, byStart));
        record(schema::kApiCalls.name, events.insert(schema::kApiCalls, t.apiCalls, byStart));
        record(schema::kCpuRanges.name, events.insert(schema::kCpuRanges, t.cpuRanges, byStart));
        record(schema::kGpuAnnotations.name,
               events.insert(schema::kGpuAnnotations, t.gpuAnnotations, byStart));
        record(schema::kFlows.name, events.insert(schema::kFlows, t.flows, [](const Flow& e) {
            return std::pair<std::int32_t, std::int64_t>(e.rank, e.correlation);
        }));
        record(schema::kCounters.name,
               events.insert(schema::kCounters, t.counters, [](const CounterSample& e) {
                   return std::pair<std::int32_t, Ns>(e.rank, e.ts);
               }));
        writeCollectiveArgs(db, runId_, t, ids);
    }
    Statement steps(db, schema::insertSql(schema::kSteps.table()));
    for (const auto& e : t.steps) {
        steps.bind(1, runId_);
        schema::kSteps.bindRow(steps, 1, e, ids);
        steps.exec();
    }
    kernels_ += static_cast<std::int64_t>(t.kernels.size());
    events_ += static_cast<std::int64_t>(t.eventCount());
    sink.checkCancel();
    sink.report(1.0);
}

void RunAppender::writeIdRanges() {
    Statement ranges(ws_.db(), "INSERT OR REPLACE INTO run_rows VALUES(?,?,?,?)");
    for (const auto& [table, span] : spans_)
        ranges.bind(1, runId_).bind(2, std::string_view(table)).bind(3, span.first).bind(4, span.last).exec();
}

void RunAppender::commitSoFar() {
    writeIdRanges();
    sqlite3* db = ws_.db();
    execSql(db, "COMMIT");
    execSql(db, "PRAGMA wal_checkpoint(PASSIVE)");
    execSql(db, "BEGIN IMMEDIATE");
}

void RunAppender::finish(const RunInfo& info) {
    sqlite3* db = ws_.db();
    Statement drop(db, "DELETE FROM runs WHERE id = ?");
    drop.bind(1, runId_).exec();
    insertRunRow(db, runId_, info, kernels_, events_);
    writeIdRanges();
}

} // namespace cnp
