#include "import/nsys/NsysDatabase.h"

#include "core/InputError.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace cnp::nsys {

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

std::uint32_t bigEndian32(const unsigned char* p) {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
}

// Percent-encodes a path for an SQLite `file:` URI (only unreserved characters and '/' stay).
std::string uriPath(const std::string& path) {
    std::string out;
    for (unsigned char c : path) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
        if (keep) {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

// Quotes an identifier for SQL ("a""b").
std::string quoteIdent(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string quoteLiteral(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += '\'';
        out += c;
    }
    return out + "'";
}

// Names of the tables an export holds (and this importer may read).
bool looksLikeExportTable(const std::string& name) {
    for (const char* prefix :
         {"CUPTI_", "NVTX_", "StringIds", "TARGET_INFO_", "ENUM_", "META_DATA_", "EXPORT_META"})
        if (name.rfind(prefix, 0) == 0)
            return true;
    return false;
}

// SQLite's progress callback: a non-zero return interrupts the running statement (SQLITE_INTERRUPT).
int interruptWhenCancelled(void* flag) {
    const auto* cancel = *static_cast<const std::atomic<bool>* const*>(flag);
    return cancel && cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

} // namespace

bool NsysDatabase::hasSqliteMagic(std::string_view head) {
    return head.size() >= kSqliteMagic.size() && head.substr(0, kSqliteMagic.size()) == kSqliteMagic;
}

void NsysDatabase::fail(const std::string& message) const {
    throw InputError(path_, message);
}

void NsysDatabase::failQuery(const std::string& what) const {
    if (cancel_ && cancel_->load(std::memory_order_relaxed))
        throw Cancelled();
    fail(what + ": " + sqlite3_errmsg(db_));
}

void NsysDatabase::setCancelFlag(const std::atomic<bool>* cancel) {
    cancel_ = cancel;
}

// Reads the 100-byte database header. The page count at offset 28 is authoritative when the
// "version-valid-for" number (offset 92) equals the change counter (offset 24); a file shorter
// than page_size * page_count lost its tail (an interrupted copy or download).
void NsysDatabase::checkHeader() const {
    std::ifstream in(path_, std::ios::binary);
    if (!in)
        fail("cannot open file");
    std::array<unsigned char, 100> h{};
    in.read(reinterpret_cast<char*>(h.data()), h.size());
    const auto got = static_cast<std::size_t>(in.gcount());
    if (!hasSqliteMagic(std::string_view(reinterpret_cast<const char*>(h.data()), got)))
        fail("not an SQLite database (no SQLite header)");
    if (got < h.size())
        fail("truncated SQLite file: shorter than its 100-byte header");
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    if (ec)
        fail("cannot read file size");
    std::uint64_t pageSize = (std::uint64_t(h[16]) << 8) | h[17];
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0)
        fail("corrupt SQLite header: invalid page size " + std::to_string(pageSize));
    const std::uint32_t changeCounter = bigEndian32(&h[24]);
    const std::uint32_t pageCount = bigEndian32(&h[28]);
    const std::uint32_t validFor = bigEndian32(&h[92]);
    if (validFor == changeCounter && pageCount > 0 && size < pageSize * pageCount)
        fail("truncated SQLite file: the header declares " + std::to_string(pageCount) + " pages of " +
             std::to_string(pageSize) + " bytes (" + std::to_string(pageSize * pageCount) +
             " bytes) but the file has " + std::to_string(size) + " bytes");
    if (size % pageSize != 0)
        fail("truncated SQLite file: size " + std::to_string(size) + " is not a multiple of the page size " +
             std::to_string(pageSize));
}

NsysDatabase::NsysDatabase(const std::string& path) : path_(path) {
    checkHeader();
    // WAL-mode files need the -shm/-wal machinery; everything else is opened immutable (no locks,
    // no journal, nothing created next to the file). One thread uses the connection: no mutex.
    std::ifstream in(path_, std::ios::binary);
    char hdr[20] = {};
    in.read(hdr, sizeof hdr);
    const bool wal = hdr[18] == 2 || hdr[19] == 2;
    const std::string uri = "file:" + uriPath(path_) + (wal ? "?mode=ro" : "?mode=ro&immutable=1");
    const int rc = sqlite3_open_v2(uri.c_str(), &db_,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        fail("cannot open SQLite database: " + msg);
    }
    // A crafted export is untrusted: no schema-defined functions run, the schema cannot be written, and
    // every statement checks the cancel flag every kProgressOps virtual-machine steps.
    sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_progress_handler(db_, kProgressOps, &interruptWhenCancelled, &cancel_);
    try {
        readCatalogue();
        if (isCnpWorkspace())
            fail("this is a CNP workspace, not an Nsight Systems export");
        const bool meta = hasTable("EXPORT_META_DATA") || hasTable("META_DATA_EXPORT");
        bool cupti = false;
        for (const auto& t : tables_)
            cupti = cupti || t.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0 || t == "NVTX_EVENTS";
        if (!hasTable("StringIds") || !(meta || cupti))
            fail("not an Nsight Systems SQLite export (no StringIds and META_DATA_EXPORT/EXPORT_META_DATA or "
                 "CUPTI_ACTIVITY_KIND_* tables)");
        readMetaData();
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

NsysDatabase::~NsysDatabase() {
    sqlite3_close(db_);
}

// Only ordinary tables count: a view or virtual table could compute anything (a view over an infinite
// recursive CTE hangs every query), and Nsight Systems writes plain tables. A view or virtual table
// named like the export's data tables is refused outright rather than silently ignored.
void NsysDatabase::readCatalogue() {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_,
                           "SELECT name, type = 'table' AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL%' "
                           "FROM sqlite_master WHERE type IN ('table', 'view') AND name IS NOT NULL",
                           -1, &st, nullptr) != SQLITE_OK)
        fail(std::string("unreadable SQLite catalogue: ") + sqlite3_errmsg(db_));
    std::string shadow;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const std::string name(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                               static_cast<std::size_t>(sqlite3_column_bytes(st, 0)));
        if (sqlite3_column_int(st, 1))
            tables_.insert(name);
        else if (shadow.empty() && looksLikeExportTable(name))
            shadow = name;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        failQuery("unreadable SQLite catalogue");
    if (!shadow.empty())
        fail("'" + shadow +
             "' is a view or virtual table, not a table; Nsight Systems exports hold plain tables "
             "(refused)");
}

void NsysDatabase::readMetaData() {
    const char* table = hasTable("META_DATA_EXPORT")   ? "META_DATA_EXPORT"
                        : hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA"
                                                       : nullptr;
    if (!table || !hasColumn(table, "name") || !hasColumn(table, "value"))
        return;
    const std::string t = table;
    schemaVersion_ = queryText("SELECT value FROM " + t + " WHERE name='EXPORT_SCHEMA_VERSION'").value_or("");
    productVersion_ =
        queryText("SELECT value FROM " + t + " WHERE name='EXPORT_PRODUCT_VERSION'").value_or("");
}

int NsysDatabase::schemaMajor() const {
    int major = 0;
    for (char c : schemaVersion_) {
        if (c < '0' || c > '9')
            break;
        major = major * 10 + (c - '0');
    }
    return major;
}

bool NsysDatabase::isCnpWorkspace() const {
    return hasTable("runs") && hasTable("meta");
}

bool NsysDatabase::hasTable(std::string_view table) const {
    return tables_.find(table) != tables_.end();
}

bool NsysDatabase::hasColumn(std::string_view table, std::string_view column) const {
    if (!hasTable(table))
        return false;
    auto it = columns_.find(table);
    if (it == columns_.end()) {
        std::set<std::string, std::less<>> cols;
        sqlite3_stmt* st = nullptr;
        const std::string sql = "PRAGMA table_info(" + quoteIdent(table) + ")";
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
            fail(std::string("unreadable table ") + std::string(table) + ": " + sqlite3_errmsg(db_));
        while (sqlite3_step(st) == SQLITE_ROW)
            if (const auto* name = sqlite3_column_text(st, 1))
                cols.emplace(reinterpret_cast<const char*>(name));
        sqlite3_finalize(st);
        it = columns_.emplace(std::string(table), std::move(cols)).first;
    }
    return it->second.find(column) != it->second.end();
}

std::string NsysDatabase::columnOr(std::string_view table, std::string_view column,
                                   std::string_view fallbackSql) const {
    return hasColumn(table, column) ? quoteIdent(column) : std::string(fallbackSql);
}

std::optional<std::int64_t> NsysDatabase::queryInt(const std::string& sql) const {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        failQuery("query failed");
    std::optional<std::int64_t> v;
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_int64(st, 0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        sqlite3_finalize(st);
        failQuery("corrupt or unreadable database");
    }
    sqlite3_finalize(st);
    return v;
}

std::optional<std::string> NsysDatabase::queryText(const std::string& sql) const {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        failQuery("query failed");
    std::optional<std::string> v;
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                        static_cast<std::size_t>(sqlite3_column_bytes(st, 0)));
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        sqlite3_finalize(st);
        failQuery("corrupt or unreadable database");
    }
    sqlite3_finalize(st);
    return v;
}

std::int64_t NsysDatabase::enumId(std::string_view table, std::string_view name,
                                  std::int64_t fallback) const {
    if (!hasColumn(table, "id") || !hasColumn(table, "name"))
        return fallback;
    return queryInt("SELECT id FROM " + quoteIdent(table) + " WHERE name=" + quoteLiteral(name))
        .value_or(fallback);
}

std::string NsysDatabase::enumLabel(std::string_view table, std::int64_t id) const {
    if (!hasColumn(table, "id") || !hasColumn(table, "label"))
        return {};
    return queryText("SELECT label FROM " + quoteIdent(table) + " WHERE id=" + std::to_string(id))
        .value_or("");
}

} // namespace cnp::nsys
