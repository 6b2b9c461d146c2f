#include "store/StringInterner.h"

namespace cnp {

StringInterner::StringInterner(sqlite3* db)
    : insert_(db, "INSERT INTO strings(value) VALUES(?) ON CONFLICT(value) DO NOTHING"),
      select_(db, "SELECT id FROM strings WHERE value = ?") {}

std::int64_t StringInterner::intern(std::string_view s) {
    insert_.bind(1, s).exec();
    select_.bind(1, s);
    select_.step();
    const std::int64_t id = select_.i64(0);
    select_.reset();
    return id;
}

} // namespace cnp
