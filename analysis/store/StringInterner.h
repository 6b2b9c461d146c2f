#pragma once
// The one way a string gets its workspace id (table `strings`, docs/schema.md): inserted when new, then
// looked up. Holds its two prepared statements, so a caller interning many strings prepares them once.
// Must run inside the caller's write transaction. O(log strings) per call.
//
// Two numberings, chosen by the workspace's meta key `string_ids` (read once per interner):
//  - absent (every workspace but the ones below): the next free id, in order of first use;
//  - `content`: the id is a function of the text alone (contentStringId), so that shards written apart
//    (`cnp ingest-shard`, docs/schema.md "Studies of shards") give a string the same id without sharing an
//    index, and a study assembled from them keeps their event rows as they are. Two texts with one id (a
//    62-bit hash: about n^2 / 2^63 for n distinct strings) are refused: InputError naming the workspace.
#include "store/Sqlite.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cnp {

class StringInterner {
public:
    static constexpr std::string_view kContentIds = "content"; // meta string_ids

    explicit StringInterner(sqlite3* db);
    std::int64_t intern(std::string_view s);

    // The id a workspace with content ids gives `s`: in 1 .. 2^62 (FNV-1a, then a 64-bit mix). O(|s|).
    static std::int64_t contentStringId(std::string_view s);
    // Whether the workspace behind `db` numbers its strings by content (meta string_ids = content).
    static bool contentIds(sqlite3* db);

private:
    sqlite3* db_;
    bool content_;
    Statement insert_, select_;
};

} // namespace cnp
