#include "store/ConnectionDefences.h"

#include "core/InputError.h"
#include "store/Sqlite.h"

namespace cnp {

namespace {

void setConfig(sqlite3* db, int option, int value) {
    if (sqlite3_db_config(db, option, value, nullptr) != SQLITE_OK)
        throw std::logic_error("sqlite3_db_config(" + std::to_string(option) + ") failed");
}

} // namespace

void applyConnectionDefences(sqlite3* db) {
    setConfig(db, SQLITE_DBCONFIG_DEFENSIVE, 1);
    setConfig(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0);
    setConfig(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0);
    setConfig(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0);
    setConfig(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    execSql(db, "PRAGMA cell_size_check=ON; PRAGMA mmap_size=0");
}

void refuseForeignObjects(sqlite3* db, const std::string& path) {
    Statement st(db, "SELECT type, name FROM sqlite_schema WHERE type IN ('trigger', 'view') OR "
                     "(type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%') ORDER BY rowid LIMIT 1");
    if (!st.step()) {
        // Generated columns (table_xinfo hidden 2: virtual, 3: stored) compute an expression of the file's
        // own on every write and read: ingest and edit took 20 s and 0.9 GB per column of `runs`.
        Statement gen(db, "SELECT m.name, x.name FROM sqlite_schema m, pragma_table_xinfo(m.name) x WHERE "
                          "m.type = 'table' AND x.hidden IN (2, 3) LIMIT 1");
        if (gen.step())
            throw InputError(path, "holds a generated column '" + printableName(gen.text(1)) +
                                       "' in table '" + printableName(gen.text(0)) +
                                       "' that the workspace schema does not define (it computes an "
                                       "expression of the file's own on every write); refusing to open it: "
                                       "ingest the traces into a new workspace");
        return;
    }
    const std::string type = st.text(0) == "table" ? "virtual table" : st.text(0);
    throw InputError(path, "holds a " + type + " '" + printableName(st.text(1)) +
                               "' that the workspace schema does not define (triggers, views and virtual "
                               "tables can run SQL of their own); refusing to open it: remove the " +
                               type + ", or ingest the traces into a new workspace");
}

std::string printableName(std::string_view name) {
    constexpr std::size_t kMax = 64;
    std::string out;
    for (char c : name.substr(0, kMax))
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    if (name.size() > kMax)
        out += "...";
    return out;
}

} // namespace cnp
