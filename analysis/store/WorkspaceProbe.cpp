#include "store/WorkspaceProbe.h"

#include "store/ConnectionDefences.h"
#include "store/Sqlite.h"

#include <array>
#include <cstring>
#include <fstream>

namespace cnp {

bool hasWorkspaceTables(sqlite3* db) {
    return queryInt(db, "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'") > 0;
}

bool isWorkspaceFile(const std::string& path) {
    static constexpr char kMagic[] = "SQLite format 3"; // 16 bytes with its NUL
    std::array<char, sizeof kMagic> head{};
    std::ifstream in(path, std::ios::binary);
    if (!in.read(head.data(), head.size()) || std::memcmp(head.data(), kMagic, sizeof kMagic) != 0)
        return false;
    sqlite3* db = nullptr;
    bool result = false;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) ==
        SQLITE_OK) {
        try {
            applyConnectionDefences(db);
            result = hasWorkspaceTables(db);
        } catch (const std::exception&) {
            result = false; // unreadable or refused: not something to open as a workspace
        }
    }
    sqlite3_close(db);
    return result;
}

} // namespace cnp
