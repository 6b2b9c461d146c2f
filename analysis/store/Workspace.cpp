#include "store/Workspace.h"

#include "core/CommaList.h"
#include "core/InputError.h"
#include "core/PhysicalBounds.h"
#include "core/RunAttributeKeys.h"
#include "core/UtcTime.h"
#include "store/ConnectionDefences.h"
#include "store/JsonText.h"
#include "store/LinkedEventShards.h"
#include "store/MetaKeys.h"
#include "store/QueryWatchdog.h"
#include "store/RunAppender.h"
#include "store/Schema.h"
#include "store/ShardSegments.h"
#include "store/StoredValueCheck.h"
#include "store/StringInterner.h"
#include "store/StudyFolder.h"
#include "store/StudyShards.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/WorkspaceProbe.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>

namespace cnp {

namespace {

// Page cache of a workspace connection (SQLite's negative form: KiB): 8 MiB.
constexpr int kCacheSize = -8192;

// The runs columns readRunRow reads: every column of the table in description order (so result column
// k is schema::kRunsColumns[k], found by schema::runsColumn), then the rank count (kRankCountColumn).
const std::string& runColumns() {
    static const std::string columns =
        schema::columnList(schema::kRuns) + ", (SELECT COUNT(*) FROM ranks r WHERE r.run_id = runs.id)";
    return columns;
}
constexpr int kRankCountColumn = static_cast<int>(std::size(schema::kRunsColumns));

// String id maps of the row tables' StringIdFields (store/RowTable.h).
template <class F> struct LocalStrings { // read: workspace string id -> loaded trace's string id
    F map;
    StringId localString(std::int64_t id) { return map(id); }
};

// Refuses what is not a regular file before anything opens it: opening a FIFO blocks, a device is no
// workspace.
void refuseNonRegularFile(const std::string& path, Workspace::Mode mode) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            throw InputError(path, std::string("cannot open workspace: ") + std::strerror(errno));
        if (mode != Workspace::Mode::CreateIfMissing)
            throw InputError(path, "no such workspace");
        return;
    }
    if (S_ISDIR(st.st_mode))
        throw InputError(path, "is a folder, not a workspace file");
    if (!S_ISREG(st.st_mode))
        throw InputError(path, "is not a regular file (a FIFO, device or socket), not a workspace");
}

// True when the file or its folder cannot be written (for the effective user).
bool locationReadOnly(const std::string& path) {
    std::error_code ec;
    const auto folder = std::filesystem::absolute(path, ec).parent_path();
    return ::access(path.c_str(), W_OK) != 0 || ::access(folder.c_str(), W_OK) != 0;
}

// An immutable open ignores the write-ahead log: refused when the log holds changes the file lacks.
void refuseUnappliedLog(const std::string& path) {
    std::error_code ec;
    const std::string wal = path + "-wal";
    if (std::filesystem::file_size(wal, ec) > 0 && !ec)
        throw InputError(path, "workspace is read-only and its write-ahead log " + wal +
                                   " holds changes not yet in the file; open it once where it can be written "
                                   "(or copy both files to a writable folder)");
}

// file: URI of `path` opened read-only and immutable (SQLite then takes no locks and needs no -shm file).
std::string immutableUri(const std::string& path) {
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (std::isalnum(c) || std::strchr("/-._~", c))
            uri += static_cast<char>(c);
        else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            uri += hex;
        }
    }
    return uri + "?mode=ro&immutable=1";
}

// v1 -> v2: event tables gain `id INTEGER PRIMARY KEY` with each run's rows contiguous and sorted by
// (rank, sort key), recorded in run_rows; the (run_id, rank, start_ns) indexes go. Copies by the fixed
// column lists of schema::eventTables(): a v1 table lacking one fails the upgrade, extra columns stay
// behind. O(events log events).
void migrateV1ToV2(sqlite3* db) {
    for (const auto& t : schema::eventTables())
        execSql(db, "ALTER TABLE " + std::string(t.name) + " RENAME TO " + std::string(t.name) + "_v1");
    execSql(db, schema::createTablesSql());
    for (const auto& t : schema::eventTables()) {
        const std::string name(t.name), old = name + "_v1", columns(t.columns);
        execSql(db, "INSERT INTO " + name + "(" + columns + ") SELECT " + columns + " FROM " + old +
                        " ORDER BY run_id, rank, " + std::string(t.sortKey) + ", rowid");
        Statement rows(db, "INSERT INTO run_rows SELECT run_id, ?, MIN(id), MAX(id) FROM " + name +
                               " GROUP BY run_id");
        rows.bind(1, t.name).exec();
        execSql(db, "DROP TABLE " + old); // its v1 indexes go with it
    }
}

// "" when table `t` of the file has exactly the described columns, in order, with the described primary
// key; else what it has instead. A table an older version's file already holds under a newer table's name
// is not replaced by CREATE TABLE IF NOT EXISTS, so a migration checks it before stamping its version.
std::string tableShapeProblem(sqlite3* db, const schema::Table& t) {
    Statement st(db, "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid");
    st.bind(1, t.name);
    std::string have, haveKey, want, wantKey(t.primaryKey);
    std::vector<std::pair<std::int64_t, std::string>> keys;
    while (st.step()) {
        have += (have.empty() ? "" : ", ") + printableName(st.text(0));
        if (st.i64(1) > 0)
            keys.emplace_back(st.i64(1), printableName(st.text(0)));
    }
    std::sort(keys.begin(), keys.end());
    for (const auto& k : keys)
        haveKey += (haveKey.empty() ? "" : ", ") + k.second;
    for (const auto& c : t.columns) {
        want += (want.empty() ? "" : ", ") + std::string(c.name);
        if (t.primaryKey.empty() && c.constraint.find("PRIMARY KEY") != std::string_view::npos)
            wantKey = std::string(c.name);
    }
    if (have == want && haveKey == wantKey)
        return {};
    return "table " + std::string(t.name) + " has columns (" + have + ") and primary key (" + haveKey +
           ") instead of (" + want + ") and (" + wantKey + ")";
}

} // namespace

Workspace::Workspace(const std::string& path, Mode mode)
    : path_(path), file_(path), readOnly_(mode == Mode::ReadOnly) {
    try {
        if (StudyFolder::isStudyPath(path))
            open(openStudy(mode));
        else {
            refuseNonRegularFile(path, mode);
            open(mode);
        }
    } catch (const SqliteError& e) {
        closeConnection();
        throw InputError(file_, "not a readable workspace: " + e.cause());
    } catch (...) {
        closeConnection();
        throw;
    }
}

// A study opens its index as this workspace's file and its shards beside it; an existing study creates
// what it lacks (an index or shard not yet written) unless it is opened read-only.
Workspace::Mode Workspace::openStudy(Mode mode) {
    const bool fresh = !std::filesystem::exists(path_) && mode == Mode::CreateIfMissing;
    StudyFolder folder = fresh ? StudyFolder::create(path_, 1) : StudyFolder::open(path_);
    const Mode files = mode == Mode::ReadOnly ? Mode::ReadOnly : Mode::CreateIfMissing;
    file_ = folder.indexPath();
    refuseNonRegularFile(file_, files);
    study_ = std::make_unique<StudyShards>(std::move(folder), files);
    return files;
}

Workspace::~Workspace() {
    closeConnection();
}

void Workspace::closeConnection() {
    watchdog_.reset();
    if (db_)
        sqlite3_close(db_);
    db_ = nullptr;
}

void Workspace::setQueryBudget(std::chrono::milliseconds budget) {
    watchdog_->setBudget(budget);
}

// Order matters: no statement reads workspace content before the defences are on and the foreign
// objects are refused.
void Workspace::open(Mode mode) {
    if (!readOnly_)
        checkWritable();
    std::int64_t tables = 0;
    try {
        openConnection(mode, false);
        tables = queryInt(db_, "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'"); // first read
    } catch (const SqliteError& e) {
        // A read-only connection to a WAL workspace needs its -shm file: where it cannot be created (a
        // read-only folder or mount), an immutable open reads the file alone, safe when there is no -wal.
        // SQLITE_READONLY too (issue 33.7): a file in WAL mode whose -shm cannot be created in a read-only
        // folder reports "attempt to write a readonly database" (SQLITE_READONLY_CANTINIT and kin), which
        // made a copy taken with sqlite3's .backup unreadable there.
        const bool cannotShare = e.primaryCode() == SQLITE_CANTOPEN || e.primaryCode() == SQLITE_READONLY;
        if (!readOnly_ || !cannotShare || !locationReadOnly(file_))
            throw;
        refuseUnappliedLog(file_);
        closeConnection();
        openConnection(mode, true);
        tables = queryInt(db_, "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'");
    }
    refuseForeignObjects(db_, file_);
    if (tables > 0 && !hasWorkspaceTables(db_))
        throw InputError(file_, "not a CNP workspace (an SQLite file without the workspace tables)");
    // Only an ingest makes an empty file a workspace; an edit or reclassify of one wrote a schema into it
    // (issue 33.6), so it is refused before the writer is configured and the file stays as it was.
    if (tables == 0 && mode != Mode::CreateIfMissing)
        throw InputError(file_, "not a CNP workspace (empty file)");
    if (!readOnly_)
        configureWriter(tables == 0);
    if (tables == 0) {
        if (readOnly_)
            throw InputError(file_, "not a CNP workspace (empty file)");
        createSchema();
    } else {
        upgradeIfOlder();
    }
}

void Workspace::openConnection(Mode mode, bool immutable) {
    int flags = SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0);
    flags |= readOnly_ ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const std::string name = immutable ? immutableUri(file_) : file_;
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        const int sysErrno = db_ ? sqlite3_system_errno(db_) : 0;
        closeConnection();
        throw InputError(file_, (mode == Mode::CreateIfMissing ? "cannot create or open workspace: "
                                                               : "cannot open workspace: ") +
                                    msg + (sysErrno ? std::string(": ") + std::strerror(sysErrno) : ""));
    }
    // SQLite opens a file it may not write read-only without saying so.
    if (!readOnly_ && sqlite3_db_readonly(db_, "main") == 1) {
        closeConnection();
        throw ReadOnlyWorkspace(file_, "the file cannot be written");
    }
    sqlite3_extended_result_codes(db_, 1);
    watchdog_ = std::make_unique<QueryWatchdog>(db_, kQueryBudget);
    applyConnectionDefences(db_);
    sqlite3_busy_timeout(db_, 5000);
    execSql(db_, "PRAGMA foreign_keys=OFF; PRAGMA temp_store=MEMORY; PRAGMA cache_size=" +
                     std::to_string(kCacheSize));
}

// A writing command on a workspace it cannot write fails here, before SQLite reports "attempt to write a
// readonly database" halfway. (access() answers for the effective user: root writes anything but a
// read-only mount.)
void Workspace::checkWritable() {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(file_, ec) && ::access(file_.c_str(), W_OK) != 0)
        throw ReadOnlyWorkspace(file_, std::strerror(errno));
    const fs::path folder = fs::absolute(file_, ec).parent_path();
    if (::access(folder.c_str(), W_OK) == 0)
        return;
    if (errno == ENOENT || errno == ENOTDIR)
        throw InputError(file_, "cannot create workspace: folder " + folder.string() + " does not exist");
    throw ReadOnlyWorkspace(file_,
                            "its folder " + folder.string() + " cannot be written: " + std::strerror(errno));
}

void Workspace::configureWriter(bool fresh) {
    // Larger pages mean fewer B-tree pages per bulk-loaded event row; only settable before the file's first
    // write (switching to WAL is one).
    if (fresh)
        execSql(db_, "PRAGMA page_size=16384");
    execSql(db_, "PRAGMA journal_mode=WAL");
    execSql(db_, "PRAGMA synchronous=NORMAL");
}

void Workspace::upgradeIfOlder() {
    const int v = schemaVersion();
    if (v > kSchemaVersion)
        throw InputError(file_, "workspace schema version " + std::to_string(v) +
                                    " is newer than this program's (" + std::to_string(kSchemaVersion) + ")");
    if (v == kSchemaVersion)
        return;
    if (!readOnly_) {
        migrate(v);
        return;
    }
    // An older workspace is upgraded once, on a read-write connection of its own.
    try {
        Workspace upgrade(file_, Mode::ReadWrite);
    } catch (const InputError& e) {
        throw InputError(file_, "workspace schema version " + std::to_string(v) +
                                    " needs a one-time upgrade, which failed: " + e.message());
    }
}

void Workspace::createSchema() {
    Transaction tx(db_);
    execSql(db_, schema::createTablesSql());
    setMeta("schema_version", std::to_string(kSchemaVersion));
    setMeta("created_at", utcNowIso8601());
    tx.commit();
}

// Every step below runs on the workspace's own tables with fixed SQL: no name read from the file reaches
// SQL text (a v1 workspace is as untrusted as any other). A migration to a later version appends its own
// `if (from < N)` block and runs in the same transaction.
void Workspace::migrate(int from) {
    if (from < 1)
        throw InputError(file_, "unknown workspace schema version " + std::to_string(from));
    const QueryWatchdog::Unbounded bulk(*watchdog_);
    Transaction tx(db_);
    if (from < 2)
        migrateV1ToV2(db_);
    if (from < 3) { // v2 -> v3 adds run_attributes (createTablesSql is idempotent); no existing row changes.
        execSql(db_, schema::createTablesSql());
        // A v2 file may already hold a malformed run_attributes (issue 33.6: it was stamped version 3 and
        // failed later); the transaction then rolls back and the version stays.
        if (const std::string problem = tableShapeProblem(db_, schema::kRunAttributes); !problem.empty())
            throw InputError(path_, "cannot upgrade workspace schema version " + std::to_string(from) +
                                        " to " + std::to_string(kSchemaVersion) + ": " + problem +
                                        "; nothing was changed");
    }
    if (from <
        4) { // v3 -> v4: summary_step and summary_rank gain launch_bound_idle_ns, summed from the gaps.
        addMissingSummaryColumns(db_);
        fillLaunchBoundIdle(db_);
    }
    setMeta("schema_version", std::to_string(kSchemaVersion));
    tx.commit();
}

std::string Workspace::runLabel(RunId runId) const {
    Statement name(db_, "SELECT name FROM runs WHERE id = ?");
    name.bind(1, runId);
    return name.step() ? "'" + printableName(name.text(0)) + "'" : "id " + std::to_string(runId.value());
}

IdRange Workspace::eventRows(RunId runId, std::string_view table) const {
    const auto* t = schema::findEventTable(table);
    if (!t)
        throw std::logic_error("eventRows: not an event table: " + std::string(table));
    Statement st(db_, "SELECT first_id, last_id FROM run_rows WHERE run_id = ? AND table_name = ?");
    st.bind(1, runId).bind(2, table);
    if (!st.step())
        return {};
    const IdRange r{st.i64(0), st.i64(1)};
    auto refuse = [&](const std::string& cause) {
        throw InputError(file_, "run_rows: the " + std::string(table) + " rows of run " + runLabel(runId) +
                                    " (ids " + std::to_string(r.first) + " to " + std::to_string(r.last) +
                                    ") " + cause);
    };
    if (r.empty())
        refuse("are an empty or reversed range");
    // Both ends are rows of this run (the table's ids: a range beyond them ends at a missing row).
    Statement row(db_, "SELECT run_id FROM " + std::string(t->name) + " WHERE id = ?");
    for (const std::int64_t id : {r.first, r.last}) {
        row.bind(1, id);
        if (!row.step())
            refuse("end at id " + std::to_string(id) + ", which is not in the table");
        if (row.i64(0) != runId.value())
            refuse("hold id " + std::to_string(id) + ", a row of another run");
        row.reset();
    }
    // No other run's rows inside: ranges of two runs never overlap.
    Statement other(db_,
                    "SELECT run_id, first_id, last_id FROM run_rows WHERE table_name = ? AND run_id != ? "
                    "AND first_id <= ? AND last_id >= ? LIMIT 1");
    other.bind(1, table).bind(2, runId).bind(3, r.last).bind(4, r.first);
    if (other.step())
        refuse("overlap the range of run id " + std::to_string(other.i64(0)) + " (ids " +
               std::to_string(other.i64(1)) + " to " + std::to_string(other.i64(2)) + ")");
    return r;
}

int Workspace::shardCount() const {
    return study_ ? study_->count() : 0;
}

Workspace& Workspace::shard(int k) {
    if (!study_)
        throw std::logic_error("Workspace::shard: " + path_ + " is not a study");
    return study_->shard(k);
}

std::vector<sqlite3*> Workspace::writeConnections() const {
    std::vector<sqlite3*> dbs;
    dbs.reserve(static_cast<std::size_t>(shardCount()) + 1);
    for (int k = 0; k < shardCount(); ++k)
        dbs.push_back(study_->shard(k).db());
    dbs.push_back(db_);
    return dbs;
}

void Workspace::checkpointShards(unsigned threads) {
    if (study_)
        study_->checkpoint(threads);
}

void Workspace::removeOrphanShardRuns() {
    for (int k = 0; k < shardCount(); ++k) {
        Workspace& s = shard(k);
        std::vector<RunId> orphans;
        Statement st(s.db(), "SELECT id FROM runs");
        while (st.step())
            if (!findRun(RunId(st.i64(0))))
                orphans.emplace_back(st.i64(0));
        for (const RunId id : orphans)
            s.deleteRunRows(id);
    }
}

const LinkedEventShards& Workspace::linkedShards(RunId runId) const {
    auto& slot = linked_[runId.value()];
    if (!slot)
        slot = std::make_unique<LinkedEventShards>(*this, runId);
    return *slot;
}

std::vector<EventSegment> Workspace::eventSegments(RunId runId, std::string_view table) const {
    if (runAttribute(runId, kEventsElsewhereAttribute))
        return linkedShards(runId).segments(table);
    if (study_)
        return study_->segments(runId, table);
    const IdRange r = eventRows(runId, table);
    if (r.empty())
        return {};
    return {EventSegment{this, r}};
}

EventSegment Workspace::eventStoreOf(RunId runId, std::int32_t rank, std::string_view table) const {
    if (runAttribute(runId, kEventsElsewhereAttribute))
        return linkedShards(runId).storeOf(rank, table);
    if (study_)
        return study_->storeOf(runId, rank, table, this);
    return {this, eventRows(runId, table)};
}

EventSegment Workspace::rankRows(RunId runId, std::int32_t rank, std::string_view table) const {
    const EventSegment at = eventStoreOf(runId, rank, table);
    return {at.store, rankIdRange(*at.store, table, at.rows, rank)};
}

__extension__ typedef __int128 i128; // lowerBoundId's bounds

std::int64_t Workspace::lowerBoundId(std::string_view table, IdRange range, std::int32_t rank,
                                     std::int64_t key) const {
    const auto* t = schema::findEventTable(table);
    if (!t)
        throw std::logic_error("lowerBoundId: not an event table: " + std::string(table));
    Statement st(db_,
                 "SELECT rank, " + std::string(t->sortKey) + " FROM " + std::string(table) + " WHERE id = ?");
    // Answer in [lo, hi], in 128 bits: range.last + 1 and hi - lo overflow int64 for a range near its ends.
    i128 lo = range.first, hi = static_cast<i128>(range.last) + 1;
    while (lo < hi) {
        const auto mid = static_cast<std::int64_t>(lo + (hi - lo) / 2);
        st.bind(1, mid);
        if (!st.step())
            throw std::logic_error("lowerBoundId: id " + std::to_string(mid) + " missing in " +
                                   std::string(table));
        const bool less = st.i32(0) < rank || (st.i32(0) == rank && st.i64(1) < key);
        st.reset();
        if (less)
            lo = static_cast<i128>(mid) + 1;
        else
            hi = mid;
    }
    return lo > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(lo);
}

int Workspace::schemaVersion() const {
    const auto v = meta("schema_version");
    if (!v)
        return 0;
    int version = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), version);
    if (ec != std::errc() || end != v->data() + v->size())
        throw InputError(file_, "not a readable workspace: meta schema_version is '" + printableName(*v) +
                                    "', not a version number");
    return version;
}

std::map<std::string, std::string> Workspace::runAttributes(RunId runId) const {
    Statement st(db_, "SELECT key, value FROM run_attributes WHERE run_id = ? ORDER BY key");
    st.bind(1, runId);
    std::map<std::string, std::string> out;
    while (st.step())
        out.emplace(st.text(0), st.text(1));
    return out;
}

std::optional<std::string> Workspace::runAttribute(RunId runId, const std::string& key) const {
    Statement st(db_, "SELECT value FROM run_attributes WHERE run_id = ? AND key = ?");
    st.bind(1, runId).bind(2, key);
    if (st.step())
        return st.text(0);
    return std::nullopt;
}

void Workspace::setRunAttribute(RunId runId, const std::string& key, const std::string& value) {
    Statement st(db_, "INSERT INTO run_attributes(run_id, key, value) VALUES(?, ?, ?) "
                      "ON CONFLICT(run_id, key) DO UPDATE SET value = excluded.value");
    st.bind(1, runId).bind(2, key).bind(3, value).exec();
}

void Workspace::eraseRunAttribute(RunId runId, const std::string& key) {
    Statement st(db_, "DELETE FROM run_attributes WHERE run_id = ? AND key = ?");
    st.bind(1, runId).bind(2, key).exec();
}

std::optional<std::string> Workspace::meta(const std::string& key) const {
    Statement st(db_, "SELECT value FROM meta WHERE key = ?");
    st.bind(1, key);
    if (st.step())
        return st.text(0);
    return std::nullopt;
}

void Workspace::setMeta(const std::string& key, const std::string& value) {
    Statement st(
        db_,
        "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    st.bind(1, key).bind(2, value).exec();
}

std::int64_t Workspace::internString(std::string_view s) {
    return StringInterner(db_).intern(s);
}

std::string Workspace::stringById(std::int64_t id) const {
    Statement st(db_, "SELECT value FROM strings WHERE id = ?");
    st.bind(1, id);
    return st.step() ? st.text(0) : std::string();
}

std::vector<std::string> Workspace::planOrder() const {
    std::vector<std::string> order;
    if (auto p = meta(std::string(metakeys::kPlanOrder)))
        order = splitCommaList(*p);
    // Configurations not in the plan follow in order of first ingest.
    Statement st(db_, "SELECT config FROM runs GROUP BY config ORDER BY MIN(id)");
    while (st.step()) {
        auto c = st.text(0);
        if (std::find(order.begin(), order.end(), c) == order.end())
            order.push_back(c);
    }
    return order;
}

void Workspace::setPlanOrder(const std::vector<std::string>& configs) {
    std::string s;
    for (const auto& c : configs) {
        if (c.find(',') != std::string::npos)
            throw InputError(path_, "configuration label '" + c + "' contains a comma");
        if (!s.empty())
            s += ',';
        s += c;
    }
    setMeta(std::string(metakeys::kPlanOrder), s);
}

RunRecord Workspace::readRunRow(Statement& st) const {
    using schema::runsColumn;
    RunRecord r;
    r.id = st.runId(runsColumn("id"));
    auto& i = r.info;
    i.name = st.text(runsColumn("name"));
    i.config = st.text(runsColumn("config"));
    i.repeat = st.i32(runsColumn("repeat"));
    i.sourceFormat = st.text(runsColumn("source_format"));
    i.sourceFiles = parseJsonArrayText(st.text(runsColumn("source_files")));
    i.host = st.text(runsColumn("host"));
    i.worldSize = st.i32(runsColumn("world_size"));
    i.gpuModels = parseJsonArrayText(st.text(runsColumn("gpu_models")));
    i.driverVersion = st.text(runsColumn("driver_version"));
    i.cudaVersion = st.text(runsColumn("cuda_version"));
    i.cuptiVersion = st.text(runsColumn("cupti_version"));
    i.containerImage = st.text(runsColumn("container_image"));
    i.env = parseJsonObjectText(st.text(runsColumn("env")));
    i.synthetic = st.i32(runsColumn("synthetic")) != 0;
    i.skipped.count = st.i64(runsColumn("skipped_events"));
    i.skipped.firstOffset = st.i64(runsColumn("first_skip_offset"));
    i.skipped.firstReason = st.text(runsColumn("first_skip_reason"));
    // Physical values are bounded when read back (a shared workspace is untrusted input; 1e308 tokens per
    // step once hung reports): outside its range, the workspace is refused, naming the run and column.
    auto physical = [&](int index, const char* column, const PhysicalBound& bound) {
        const double v = st.f64(index);
        if (!bound.holds(v))
            throw InputError(path_, "run '" + i.name + "': " + column + ": " + outOfBoundText(bound, v));
        return v;
    };
    i.tokensPerStep = physical(runsColumn("tokens_per_step"), "tokens_per_step", bounds::kTokensPerStep);
    i.flopsPerStep = physical(runsColumn("flops_per_step"), "flops_per_step", bounds::kFlopsPerStep);
    i.peakFlops = physical(runsColumn("peak_flops"), "peak_flops", bounds::kPeakFlops);
    r.createdAt = st.text(runsColumn("created_at"));
    r.rankCount = st.i32(kRankCountColumn);
    r.kernelCount = st.i64(runsColumn("kernel_count"));
    r.eventCount = st.i64(runsColumn("event_count"));
    return r;
}

std::vector<RunRecord> Workspace::runs() const {
    std::vector<RunRecord> out;
    Statement st(db_, "SELECT " + runColumns() + " FROM runs");
    while (st.step())
        out.push_back(readRunRow(st));
    const auto order = planOrder();
    auto pos = [&](const std::string& c) { return std::find(order.begin(), order.end(), c) - order.begin(); };
    std::stable_sort(out.begin(), out.end(), [&](const RunRecord& a, const RunRecord& b) {
        const auto pa = pos(a.info.config), pb = pos(b.info.config);
        if (pa != pb)
            return pa < pb;
        if (a.info.repeat != b.info.repeat)
            return a.info.repeat < b.info.repeat;
        return a.info.name < b.info.name;
    });
    return out;
}

std::optional<RunRecord> Workspace::findRun(const std::string& name) const {
    Statement st(db_, "SELECT " + runColumns() + " FROM runs WHERE name = ?");
    st.bind(1, name);
    if (st.step())
        return readRunRow(st);
    return std::nullopt;
}

std::optional<RunRecord> Workspace::findRun(RunId runId) const {
    Statement st(db_, "SELECT " + runColumns() + " FROM runs WHERE id = ?");
    st.bind(1, runId);
    if (st.step())
        return readRunRow(st);
    return std::nullopt;
}

RunRecord Workspace::runOrThrow(RunId runId) const {
    if (auto r = findRun(runId))
        return *r;
    throw InputError(path_, "run id " + std::to_string(runId.value()) +
                                " is no longer in the workspace (removed after the run list was read)");
}

RunRecord Workspace::runOrThrow(const std::string& name) const {
    if (auto r = findRun(name))
        return *r;
    std::string known;
    for (const auto& r : runs())
        known += (known.empty() ? "" : ", ") + r.info.name;
    throw InputError(path_, "no run named '" + name + "'" +
                                (known.empty() ? " (the workspace has no runs)" : " (runs: " + known + ")"));
}

RunId Workspace::insertRun(const TraceData& t, const ProgressSink& sink) {
    RunAppender appender(*this, t.info.name);
    appender.append(t, sink);
    appender.finish(t.info);
    return appender.runId();
}

// Deletes the run's rows from every table that has a run_id column (event, rank and summary tables).
void Workspace::removeRun(const std::string& name) {
    removeRun(runOrThrow(name).id);
}

void Workspace::removeRun(RunId runId) {
    runOrThrow(runId);
    Transaction tx(writeConnections());
    deleteRunRows(runId);
    tx.commit();
    // The shards fetched for it (events on demand) are copies of what stays on the cluster.
    linked_.erase(runId.value());
    std::error_code ec;
    std::filesystem::remove_all(linkedShardsDir(*this, runId), ec);
}

void Workspace::deleteRunRows(RunId runId) {
    const auto run = runOrThrow(runId);
    const QueryWatchdog::Unbounded bulk(*watchdog_);
    for (int k = 0; k < shardCount(); ++k)
        if (shard(k).findRun(runId))
            shard(k).deleteRunRows(runId);
    // Every table with a run_id column, ours or an older version's (v1 summary tables).
    Statement tables(db_, "SELECT m.name FROM sqlite_schema m JOIN pragma_table_info(m.name) c "
                          "WHERE m.type = 'table' AND c.name = 'run_id'");
    std::vector<std::string> names;
    while (tables.step())
        names.push_back(tables.text(0));
    // Event tables first, by the run's id range (a B-tree range delete, not a scan), then run_rows and the
    // other tables by run_id.
    for (const auto& t : schema::eventTables()) {
        const IdRange r = eventRows(run.id, t.name);
        Statement del(db_, "DELETE FROM " + std::string(t.name) + " WHERE id BETWEEN ? AND ?");
        del.bind(1, r.first).bind(2, r.last).exec();
    }
    for (const auto& tname : names) {
        if (schema::findEventTable(tname))
            continue;
        Statement del(db_, "DELETE FROM " + quoteIdentifier(tname) + " WHERE run_id = ?");
        del.bind(1, run.id).exec();
    }
    Statement del(db_, "DELETE FROM runs WHERE id = ?");
    del.bind(1, run.id).exec();
}

void Workspace::renameRun(const std::string& from, const std::string& to) {
    renameRun(runOrThrow(from).id, to);
}

void Workspace::renameRun(RunId runId, const std::string& to) {
    const auto run = runOrThrow(runId);
    if (to.empty())
        throw InputError(path_, "a run name cannot be empty");
    if (findRun(to))
        throw InputError(path_, "a run named '" + to + "' already exists");
    Statement st(db_, "UPDATE runs SET name = ? WHERE id = ?");
    st.bind(1, to).bind(2, run.id).exec();
}

void Workspace::relabelRun(const std::string& name, const std::string& config) {
    relabelRun(runOrThrow(name).id, config);
}

void Workspace::relabelRun(RunId runId, const std::string& config) {
    const auto run = runOrThrow(runId);
    if (config.empty())
        throw InputError(path_, "a configuration label cannot be empty");
    Statement st(db_, "UPDATE runs SET config = ? WHERE id = ?");
    st.bind(1, config).bind(2, run.id).exec();
}

TraceData Workspace::loadRun(RunId runId, std::optional<std::int32_t> rank) const {
    TraceData t;
    {
        Statement st(db_, "SELECT " + runColumns() + " FROM runs WHERE id = ?");
        st.bind(1, runId);
        if (!st.step())
            throw InputError(path_,
                             "run id " + std::to_string(runId.value()) +
                                 " is no longer in the workspace (removed after the run list was read)");
        t.info = readRunRow(st).info;
    }
    std::map<std::int64_t, StringId> local; // workspace string id -> trace string id
    Statement str(db_, "SELECT value FROM strings WHERE id = ?");
    auto s = [&](std::int64_t id) -> StringId {
        auto it = local.find(id);
        if (it != local.end())
            return it->second;
        str.bind(1, id);
        const StringId sidLocal = str.step() ? t.strings.intern(str.text(0)) : 0;
        str.reset();
        local.emplace(id, sidLocal);
        return sidLocal;
    };
    LocalStrings<decltype(s)> strings{s};
    // A row table's rows of the run, read by its description: an event table's rows in their stored order
    // (rank, sort key), one sequential id range; the other tables by run_id in `orderBy` order.
    auto readAll = [&](const auto& desc, auto& out, const char* orderBy) {
        using Row = typename std::decay_t<decltype(out)>::value_type;
        const std::string table(desc.name);
        auto read = [&](Statement& st) {
            while (st.step()) {
                Row e;
                desc.readRow(st, 0, e, strings);
                if (const std::string problem = StoredValueCheck::problemOf(desc, e); !problem.empty())
                    throw InputError(path_, table + ": a row of run " + runLabel(runId) + " (rank " +
                                                std::to_string(e.rank) + "): " + problem);
                out.push_back(std::move(e));
            }
        };
        Statement st;
        if (orderBy) {
            st = Statement(db_, "SELECT " + desc.valueColumns() + " FROM " + table + " WHERE run_id = ?" +
                                    (rank ? " AND rank = ?" : "") + " ORDER BY " + orderBy);
            st.bind(1, runId);
            if (rank)
                st.bind(2, *rank);
            read(st);
            return;
        }
        for (const EventSegment& seg :
             rank ? std::vector<EventSegment>{rankRows(runId, *rank, table)} : eventSegments(runId, table)) {
            if (seg.rows.empty())
                continue;
            st = Statement(seg.store->db(),
                           "SELECT " + desc.valueColumns() + " FROM " + table + " WHERE id BETWEEN ? AND ?");
            st.bind(1, seg.rows.first).bind(2, seg.rows.last);
            read(st);
        }
    };
    readAll(schema::kRanks, t.ranks, "rank");
    readAll(schema::kKernels, t.kernels, nullptr);
    readAll(schema::kMemcpys, t.memcpys, nullptr);
    readAll(schema::kMemsets, t.memsets, nullptr);
    readAll(schema::kApiCalls, t.apiCalls, nullptr);
    readAll(schema::kCpuRanges, t.cpuRanges, nullptr);
    readAll(schema::kGpuAnnotations, t.gpuAnnotations, nullptr);
    readAll(schema::kFlows, t.flows, nullptr);
    readAll(schema::kCounters, t.counters, nullptr);
    readAll(schema::kSteps, t.steps, "rank, step_index");
    // Flows are stored by (rank, correlation); a loaded trace has normaliseTrace's (rank, CPU time) order.
    std::stable_sort(t.flows.begin(), t.flows.end(), [](const Flow& a, const Flow& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.cpuTs < b.cpuTs;
    });
    return t;
}

} // namespace cnp
