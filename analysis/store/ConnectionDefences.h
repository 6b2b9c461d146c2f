#pragma once
// A workspace is untrusted data (people share them): what every workspace connection does before it
// reads anything. See docs/errors.md ("Hostile workspaces").
#include <sqlite3.h>

#include <string>
#include <string_view>

namespace cnp {

// SQLite's own defences (https://www.sqlite.org/security.html): defensive mode (no writes to the schema
// table or the file's header fields), an untrusted schema (no SQL functions with side effects run from
// it), triggers and views disabled (the schema defines none), no ATTACH, b-tree cell checks, no mmap.
void applyConnectionDefences(sqlite3* db);

// Throws InputError naming `path` and the object when the schema table holds a trigger, a view or a
// virtual table: the workspace schema defines none, and each could run SQL or hide data behind a table's
// name. Unknown tables and indexes are left alone (older versions wrote some; nothing reads them).
void refuseForeignObjects(sqlite3* db, const std::string& path);

// `name` (taken from a file) fit for a one-line message: at most 64 characters, control characters as '?'.
std::string printableName(std::string_view name);

} // namespace cnp
