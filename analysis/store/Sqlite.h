#pragma once
// Thin RAII wrappers over the SQLite C API. Errors throw SqliteError carrying sqlite3_errmsg.
#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cnp {

class SqliteError : public std::runtime_error {
public:
    explicit SqliteError(const std::string& what) : std::runtime_error(what) {}
};

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
        if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK)
            throwError("bind");
        return *this;
    }
    Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    Statement& bind(int i, double v);
    Statement& bind(int i, std::string_view v); // SQLITE_TRANSIENT copy
    Statement& bindNull(int i);
    // Returns true while a row is available; false when done. Throws on error.
    bool step();
    // Runs a statement that returns no rows, then resets it for reuse.
    void exec();
    void reset();

    std::int64_t i64(int col) const { return sqlite3_column_int64(stmt_, col); }
    int i32(int col) const { return sqlite3_column_int(stmt_, col); }
    double f64(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const;
    bool isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
    sqlite3_stmt* handle() const { return stmt_; }

private:
    [[noreturn]] void throwError(const char* what) const;

    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
};

void execSql(sqlite3* db, std::string_view sql);
std::int64_t queryInt(sqlite3* db, std::string_view sql, std::int64_t fallback = 0);

// BEGIN IMMEDIATE on construction, ROLLBACK in the destructor unless commit() was called.
class Transaction {
public:
    explicit Transaction(sqlite3* db);
    ~Transaction();
    void commit();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

private:
    sqlite3* db_;
    bool done_ = false;
};

} // namespace cnp
