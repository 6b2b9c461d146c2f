#pragma once
// The one way a string gets its workspace id (table `strings`, docs/schema.md): inserted when new, then
// looked up. Holds its two prepared statements, so a caller interning many strings prepares them once.
// Must run inside the caller's write transaction. O(log strings) per call.
#include "store/Sqlite.h"

#include <cstdint>
#include <string_view>

namespace cnp {

class StringInterner {
public:
    explicit StringInterner(sqlite3* db);
    std::int64_t intern(std::string_view s);

private:
    Statement insert_, select_;
};

} // namespace cnp
