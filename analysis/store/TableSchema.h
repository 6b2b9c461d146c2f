#pragma once
// The description of one stored table, from which its SQL is generated: CREATE TABLE, column lists,
// INSERT and SELECT text. A table is a list of Columns (name, SQL type, constraint, unit) and an optional
// table-level primary key. Row types stored column by column (events, ranks, steps) add a Field per
// column: how the column's value is bound from and read into the C++ row (store/Fields.h). The
// descriptions of every table are in store/Tables.h; docs/schema.md is checked against them
// (tests/analysis/tst_schemadoc.cpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cnp::schema {

enum class SqlType : std::uint8_t { Integer, Real, Text, Blob };
// "INTEGER", "REAL", "TEXT", "BLOB".
std::string_view sqlTypeName(SqlType t);

struct Column {
    constexpr Column(std::string_view n, SqlType t, std::string_view c, std::string_view u = {})
        : name(n), type(t), constraint(c), unit(u) {}

    std::string_view name;
    SqlType type = SqlType::Integer;
    std::string_view constraint; // text after the type in CREATE TABLE: "NOT NULL DEFAULT 0", "PRIMARY KEY"
    std::string_view unit;       // "ns", "bytes", "" when it has none (documentation only)
};

struct Table {
    std::string_view name;
    std::span<const Column> columns;
    std::string_view primaryKey; // columns of a table-level PRIMARY KEY(...), "" when none

    // Index of column `name`; throws std::logic_error when the table has none (a programming error).
    std::size_t indexOf(std::string_view column) const;
    bool has(std::string_view column) const;
};

// "CREATE TABLE IF NOT EXISTS name(col TYPE constraint, ..., PRIMARY KEY(...));"
std::string createTableSql(const Table& t);
// "c1, c2, ..." of columns [first, first + count) (count clipped to the table); `prefix` before each name
// (e.g. "p." for a joined query).
std::string columnList(const Table& t, std::size_t first = 0, std::size_t count = SIZE_MAX,
                       std::string_view prefix = {});
// "INSERT INTO name(c_first, ...) VALUES(?, ...)": one positional parameter per column from `first` on.
std::string insertSql(const Table& t, std::size_t first = 0);
// "c TYPE" of column `name` for ALTER TABLE ADD COLUMN (without its constraint).
std::string columnDefinition(const Table& t, std::string_view column);

} // namespace cnp::schema
