#include "store/Sqlite.h"

#include <utility>

namespace cnp {

static void check(sqlite3* db, int rc, const char* what) {
    if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        throw SqliteError(std::string(what) + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    check(db,
          sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_,
                             nullptr),
          "prepare");
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

void Statement::throwError(const char* what) const {
    throw SqliteError(std::string(what) + ": " + (db_ ? sqlite3_errmsg(db_) : "no database"));
}

Statement& Statement::bind(int i, double v) {
    check(db_, sqlite3_bind_double(stmt_, i, v), "bind");
    return *this;
}
Statement& Statement::bind(int i, std::string_view v) {
    check(db_, sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT), "bind");
    return *this;
}
Statement& Statement::bindNull(int i) {
    check(db_, sqlite3_bind_null(stmt_, i), "bind");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    throw SqliteError(std::string("step: ") + sqlite3_errmsg(db_));
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
    char* err = nullptr;
    const std::string s(sql);
    if (sqlite3_exec(db, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw SqliteError(msg + " in: " + s.substr(0, 120));
    }
}

std::int64_t queryInt(sqlite3* db, std::string_view sql, std::int64_t fallback) {
    Statement st(db, sql);
    return st.step() && !st.isNull(0) ? st.i64(0) : fallback;
}

Transaction::Transaction(sqlite3* db) : db_(db) {
    execSql(db_, "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!done_)
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    execSql(db_, "COMMIT");
    done_ = true;
}

} // namespace cnp
