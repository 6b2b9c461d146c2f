#include "store/TableSchema.h"

#include <algorithm>
#include <stdexcept>

namespace cnp::schema {

std::string_view sqlTypeName(SqlType t) {
    switch (t) {
    case SqlType::Integer:
        return "INTEGER";
    case SqlType::Real:
        return "REAL";
    case SqlType::Text:
        return "TEXT";
    case SqlType::Blob:
        return "BLOB";
    }
    return "INTEGER";
}

std::size_t Table::indexOf(std::string_view column) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i].name == column)
            return i;
    throw std::logic_error("table " + std::string(name) + " has no column " + std::string(column));
}

bool Table::has(std::string_view column) const {
    return std::any_of(columns.begin(), columns.end(), [&](const Column& c) { return c.name == column; });
}

std::string createTableSql(const Table& t) {
    std::string s = "CREATE TABLE IF NOT EXISTS " + std::string(t.name) + "(";
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        const Column& c = t.columns[i];
        s += (i ? ", " : "") + std::string(c.name) + " " + std::string(sqlTypeName(c.type));
        if (!c.constraint.empty())
            s += " " + std::string(c.constraint);
    }
    if (!t.primaryKey.empty())
        s += ", PRIMARY KEY(" + std::string(t.primaryKey) + ")";
    return s + ");\n";
}

std::string columnList(const Table& t, std::size_t first, std::size_t count, std::string_view prefix) {
    std::string s;
    const std::size_t end =
        count >= t.columns.size() - std::min(first, t.columns.size()) ? t.columns.size() : first + count;
    for (std::size_t i = first; i < end; ++i)
        s += (i > first ? ", " : "") + std::string(prefix) + std::string(t.columns[i].name);
    return s;
}

std::string insertSql(const Table& t, std::size_t first) {
    std::string params;
    for (std::size_t i = first; i < t.columns.size(); ++i)
        params += i > first ? ",?" : "?";
    return "INSERT INTO " + std::string(t.name) + "(" + columnList(t, first) + ") VALUES(" + params + ")";
}

std::string columnDefinition(const Table& t, std::string_view column) {
    const Column& c = t.columns[t.indexOf(column)];
    return std::string(c.name) + " " + std::string(sqlTypeName(c.type));
}

} // namespace cnp::schema
