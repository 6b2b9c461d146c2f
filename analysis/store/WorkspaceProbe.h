#pragma once
// The one rule for "is this a CNP workspace": an SQLite database whose schema has the workspace's `meta`
// table (docs/schema.md). Workspace's open refuses a non-empty database without it; the workbench opens a
// dropped file that passes it and ingests anything else.
#include <sqlite3.h>

#include <string>

namespace cnp {

// On an open connection. O(schema size).
bool hasWorkspaceTables(sqlite3* db);
// On a file: its SQLite header, then its schema through a read-only, defended connection (the file is
// untrusted input). False for anything unreadable, for another SQLite file and for an empty database.
bool isWorkspaceFile(const std::string& path);

} // namespace cnp
