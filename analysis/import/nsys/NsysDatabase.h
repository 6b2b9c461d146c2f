#pragma once
// A read-only view of an Nsight Systems SQLite export (`nsys export --type sqlite`).
// The file is opened with SQLITE_OPEN_READONLY (and `immutable=1` when it is not in WAL mode), so
// nothing is ever written next to it. Nsight Systems creates tables only when they hold data (newer
// schemas) and adds or renames columns between versions, so every reader asks hasTable/hasColumn
// first instead of assuming a layout (docs/nsys-mapping.md lists what we read).
// Errors (not SQLite, truncated, not an nsys export, corrupt pages) are InputError naming the file.
// The file is untrusted: only ordinary tables are read (a view or virtual table named like an export
// table is refused), schema functions are not trusted, and a raised cancel flag (setCancelFlag)
// interrupts any running statement, which then throws Cancelled.
#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cnp::nsys {

class NsysDatabase {
public:
    // Opens and validates: SQLite magic, header page count against the file size (truncation),
    // readable sqlite_master, and the nsys marker tables (StringIds plus an export meta-data or
    // CUPTI_ACTIVITY_KIND_* table). Throws InputError otherwise.
    explicit NsysDatabase(const std::string& path);
    ~NsysDatabase();
    NsysDatabase(const NsysDatabase&) = delete;
    NsysDatabase& operator=(const NsysDatabase&) = delete;

    // Virtual-machine steps between two checks of the cancel flag (about 0.1 ms).
    static constexpr int kProgressOps = 10000;

    sqlite3* db() const { return db_; }
    // Raising `*cancel` interrupts the running statement; null = never. The flag must outlive this.
    void setCancelFlag(const std::atomic<bool>* cancel);
    // Throws Cancelled when the cancel flag is raised (the statement was interrupted), otherwise
    // InputError "<what>: <SQLite's message>" naming the file.
    [[noreturn]] void failQuery(const std::string& what) const;
    const std::string& path() const { return path_; }

    bool hasTable(std::string_view table) const;
    bool hasColumn(std::string_view table, std::string_view column) const;
    // `column` when the table has it, otherwise `fallbackSql` (e.g. "NULL" or "0"): builds SELECT lists
    // that work on every schema generation.
    std::string columnOr(std::string_view table, std::string_view column, std::string_view fallbackSql) const;

    // Export schema version ("2.9.1", "3.13.2"...) from EXPORT_META_DATA (2.x) or META_DATA_EXPORT
    // (3.x); empty when neither table says. schemaMajor() is 0 when unknown.
    const std::string& schemaVersion() const { return schemaVersion_; }
    int schemaMajor() const;
    // nsys product version ("2022.2.1.31"), empty when unknown.
    const std::string& productVersion() const { return productVersion_; }

    // Id of `name` in an ENUM_* table (3.x schemas); `fallback` when the table or row is absent
    // (2.x schemas hard-code the same values).
    std::int64_t enumId(std::string_view table, std::string_view name, std::int64_t fallback) const;
    // Label of `id` in an ENUM_* table; empty when absent.
    std::string enumLabel(std::string_view table, std::int64_t id) const;

    // Quick test on the first bytes of a file: the 16-byte SQLite header string.
    static bool hasSqliteMagic(std::string_view head);
    // True when the database holds a CNP workspace (tables `runs` and `meta`) rather than an export.
    bool isCnpWorkspace() const;

    // Runs `sql` and returns the first column of the first row as int64; nullopt when no row or NULL.
    std::optional<std::int64_t> queryInt(const std::string& sql) const;
    std::optional<std::string> queryText(const std::string& sql) const;

private:
    void checkHeader() const;
    void readCatalogue();
    void readMetaData();
    [[noreturn]] void fail(const std::string& message) const;

    std::string path_;
    sqlite3* db_ = nullptr;
    std::set<std::string, std::less<>> tables_;
    mutable std::map<std::string, std::set<std::string, std::less<>>, std::less<>> columns_; // lazily filled
    std::string schemaVersion_, productVersion_;
    const std::atomic<bool>* cancel_ = nullptr; // read by the progress handler through its address
};

} // namespace cnp::nsys
