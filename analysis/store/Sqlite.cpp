#include "store/Sqlite.h"

#include "core/InputError.h"
#include "core/Interrupt.h"

#include <cerrno>
#include <cstring>
#include <utility>

namespace cnp {

namespace {

thread_local std::uint64_t tStepCalls = 0;

std::string formatSqliteError(const std::string& file, const std::string& cause) {
    return file.empty() ? cause : file + ": " + cause;
}

// What went wrong, for a user: SQLite's message plus what it means for the common failures.
std::string describe(sqlite3* db, int code) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(code); // not const: returned by move
    const int sysErrno = db ? sqlite3_system_errno(db) : 0;
    if (sysErrno == ENOSPC || (code & 0xff) == SQLITE_FULL)
        return "disk full (" + msg + (sysErrno ? std::string(": ") + std::strerror(sysErrno) : "") +
               "); the transaction was rolled back";
    switch (code & 0xff) {
    case SQLITE_CORRUPT:
        return "the file is corrupt (" + msg + ")";
    case SQLITE_NOTADB:
        return "not an SQLite database (" + msg + ")";
    case SQLITE_READONLY:
        return "cannot write: the file is read-only (" + msg + ")";
    case SQLITE_INTERRUPT:
        return "a query ran longer than its time budget and was interrupted (the file may hold hostile "
               "content)";
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
        return sysErrno ? msg + ": " + std::strerror(sysErrno) : msg;
    default:
        return msg;
    }
}

// Throws for every result but OK, ROW and DONE: Cancelled when the user interrupted, else SqliteError.
void check(sqlite3* db, int rc) {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE)
        return;
    const int code = db ? sqlite3_extended_errcode(db) : rc;
    if ((code & 0xff) == SQLITE_INTERRUPT && interruptRequested())
        throw Cancelled();
    const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
    throw SqliteError(file ? file : "", describe(db, code), code);
}

} // namespace

SqliteError::SqliteError(std::string file, std::string cause, int code)
    : std::runtime_error(formatSqliteError(file, cause)), file_(std::move(file)), cause_(std::move(cause)),
      code_(code) {}

std::uint64_t stepCallsOnThisThread() {
    return tStepCalls;
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    check(db, sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                 &stmt_, nullptr));
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& o) noexcept
    : db_(std::exchange(o.db_, nullptr)), stmt_(std::exchange(o.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& o) noexcept {
    if (this != &o) {
        sqlite3_finalize(stmt_);
        db_ = std::exchange(o.db_, nullptr);
        stmt_ = std::exchange(o.stmt_, nullptr);
    }
    return *this;
}

void Statement::throwError(int rc) const {
    check(db_, rc);
    throw std::logic_error("Statement::throwError: not an error");
}

Statement& Statement::bind(int i, double v) {
    check(db_, sqlite3_bind_double(stmt_, i, v));
    return *this;
}
Statement& Statement::bind(int i, std::string_view v) {
    check(db_, sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
}
Statement& Statement::bindNull(int i) {
    check(db_, sqlite3_bind_null(stmt_, i));
    return *this;
}

bool Statement::step() {
    ++tStepCalls;
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    throwError(rc);
}

void Statement::exec() {
    while (step()) {
    }
    sqlite3_reset(stmt_); // bindings stay: callers rebind every parameter of the next row
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : std::string();
}

void execSql(sqlite3* db, std::string_view sql) {
    ++tStepCalls;
    const std::string s(sql);
    check(db, sqlite3_exec(db, s.c_str(), nullptr, nullptr, nullptr));
}

std::string quoteIdentifier(std::string_view name) {
    std::string q = "\"";
    for (char c : name) {
        if (c == '"')
            q += '"';
        q += c;
    }
    return q + '"';
}

std::int64_t queryInt(sqlite3* db, std::string_view sql, std::int64_t fallback) {
    Statement st(db, sql);
    return st.step() && !st.isNull(0) ? st.i64(0) : fallback;
}

Transaction::Transaction(sqlite3* db) : Transaction(std::vector<sqlite3*>{db}) {}

Transaction::Transaction(std::vector<sqlite3*> dbs) : dbs_(std::move(dbs)) {
    try {
        for (; begun_ < dbs_.size(); ++begun_)
            execSql(dbs_[begun_], "BEGIN IMMEDIATE");
    } catch (...) {
        for (std::size_t k = 0; k < begun_; ++k)
            sqlite3_exec(dbs_[k], "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

Transaction::~Transaction() {
    for (std::size_t k = committed_; k < begun_; ++k)
        sqlite3_exec(dbs_[k], "ROLLBACK", nullptr, nullptr, nullptr);
}

ReadTransaction::ReadTransaction(sqlite3* db) : db_(db), owned_(sqlite3_get_autocommit(db) != 0) {
    if (owned_)
        execSql(db_, "BEGIN");
}

ReadTransaction::~ReadTransaction() {
    if (owned_)
        sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr); // nothing written: cannot fail but by misuse
}

void Transaction::commit() {
    for (; committed_ < begun_; ++committed_)
        execSql(dbs_[committed_], "COMMIT");
}

} // namespace cnp
