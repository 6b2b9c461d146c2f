#pragma once
// Thin RAII wrappers over the SQLite C API. Errors throw SqliteError naming the database file and the
// cause; a query interrupted by the user (interruptRequested(), core/Interrupt.h) throws Cancelled.
#include "core/Ids.h"

#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

class SqliteError : public std::runtime_error {
public:
    // what(): "FILE: CAUSE" (just CAUSE for an in-memory database); `code` is SQLite's extended result code.
    SqliteError(std::string file, std::string cause, int code);
    const std::string& file() const { return file_; }
    const std::string& cause() const { return cause_; }
    int code() const { return code_; }
    int primaryCode() const { return code_ & 0xff; }

private:
    std::string file_, cause_;
    int code_;
};

// The number of sqlite3_step calls made through Statement and execSql on this thread so far; QueryWatchdog
// tells one call from the next by it.
std::uint64_t stepCallsOnThisThread();

class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql);
    ~Statement();
    Statement(Statement&& o) noexcept;
    Statement& operator=(Statement&& o) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Binding is 1-based like sqlite3_bind_*.
    // Inline: bulk inserts bind tens of millions of integers.
    Statement& bind(int i, std::int64_t v) {
        if (const int rc = sqlite3_bind_int64(stmt_, i, v); rc != SQLITE_OK)
            throwError(rc);
        return *this;
    }
    Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    template <class Tag, class Rep> Statement& bind(int i, StrongId<Tag, Rep> id) {
        return bind(i, static_cast<std::int64_t>(id.value()));
    }
    Statement& bind(int i, double v);
    Statement& bind(int i, std::string_view v); // SQLITE_TRANSIENT copy
    Statement& bindNull(int i);
    // Returns true while a row is available; false when done. Throws on error.
    bool step();
    // Runs a statement that returns no rows, then resets it for reuse.
    void exec();
    void reset();

    std::int64_t i64(int col) const { return sqlite3_column_int64(stmt_, col); }
    RunId runId(int col) const { return RunId(i64(col)); }
    int i32(int col) const { return sqlite3_column_int(stmt_, col); }
    double f64(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const;
    bool isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
    sqlite3_stmt* handle() const { return stmt_; }

private:
    [[noreturn]] void throwError(int rc) const;

    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
};

void execSql(sqlite3* db, std::string_view sql);
// `name` as an SQL identifier: in double quotes, inner double quotes doubled. For the rare name read from
// a database that SQL must mention; never paste an unquoted one.
std::string quoteIdentifier(std::string_view name);
std::int64_t queryInt(sqlite3* db, std::string_view sql, std::int64_t fallback = 0);

// BEGIN IMMEDIATE on construction, ROLLBACK in the destructor unless commit() was called.
class Transaction {
public:
    explicit Transaction(sqlite3* db);
    // One transaction on each of `dbs` (a study's shards and its index), begun in order and committed in
    // order: the last connection's commit is the one that makes the change visible to readers of the
    // index. A failure between two commits leaves the earlier ones committed (docs/schema.md says what a
    // study does with rows its index does not know).
    explicit Transaction(std::vector<sqlite3*> dbs);
    ~Transaction();
    void commit();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

private:
    std::vector<sqlite3*> dbs_;
    std::size_t begun_ = 0, committed_ = 0;
};

// A read snapshot: BEGIN on construction, COMMIT in the destructor. In WAL mode every read in between
// sees the database as of the first one, so a long read (a report, an export) stays consistent while
// another process ingests or removes runs. Inside a transaction already open it does nothing (that
// transaction is the snapshot).
class ReadTransaction {
public:
    explicit ReadTransaction(sqlite3* db);
    ~ReadTransaction();
    ReadTransaction(const ReadTransaction&) = delete;
    ReadTransaction& operator=(const ReadTransaction&) = delete;

private:
    sqlite3* db_;
    bool owned_;
};

} // namespace cnp
