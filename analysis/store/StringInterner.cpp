#include "store/StringInterner.h"

#include "core/InputError.h"
#include "store/MetaKeys.h"

namespace cnp {

bool StringInterner::contentIds(sqlite3* db) {
    Statement st(db, "SELECT value FROM meta WHERE key = ?");
    st.bind(1, metakeys::kStringIds);
    return st.step() && st.text(0) == kContentIds;
}

std::int64_t StringInterner::contentStringId(std::string_view s) {
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a, 64 bits
    for (const char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 33; // murmur3's finaliser: every input bit moves every output bit
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return static_cast<std::int64_t>(h & ((std::uint64_t{1} << 62) - 1)) + 1;
}

StringInterner::StringInterner(sqlite3* db)
    : db_(db), content_(contentIds(db)),
      insert_(db, content_ ? "INSERT INTO strings(id, value) VALUES(?, ?) ON CONFLICT DO NOTHING"
                           : "INSERT INTO strings(value) VALUES(?) ON CONFLICT(value) DO NOTHING"),
      select_(db, "SELECT id FROM strings WHERE value = ?") {}

std::int64_t StringInterner::intern(std::string_view s) {
    if (content_)
        insert_.bind(1, contentStringId(s)).bind(2, s).exec();
    else
        insert_.bind(1, s).exec();
    select_.bind(1, s);
    if (!select_.step()) { // content ids: the id is another text's
        select_.reset();
        throw InputError(sqlite3_db_filename(db_, "main"),
                         "two strings have the content id " + std::to_string(contentStringId(s)) +
                             " (one of them: '" + std::string(s.substr(0, 80)) + "')");
    }
    const std::int64_t id = select_.i64(0);
    select_.reset();
    return id;
}

} // namespace cnp
