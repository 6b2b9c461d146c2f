#pragma once
// The bare SQLite insert floor the ingest benchmarks print their figure next to: `rows` rows of 8 integer
// columns through one prepared statement in one transaction, with the pragmas a workspace's bulk insert
// runs under (store/Workspace.cpp: 16 KiB pages, WAL, synchronous=NORMAL, in-memory temp store, the 2 MiB
// page cache of the event insert), into a fresh file `db`. Returns seconds of the insert alone (open and
// CREATE excluded). What any ingest of that many rows cannot beat.
// (Until 2026-12 this used 4 KiB pages and a 64 MiB cache: fine at 10 M rows, but at 100 M rows its
// one 4 GB transaction spilled the cache into a WAL whose index lookups grew with it, 408 k rows/s, so
// the ingest "beat" its floor at 136%.)
#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace cnp::bench {

inline double sqliteInsertFloorSeconds(const std::string& db, std::int64_t rows) {
    sqlite3* h = nullptr;
    sqlite3_open(db.c_str(), &h);
    sqlite3_exec(h,
                 "PRAGMA page_size=16384; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                 "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-2048;",
                 nullptr, nullptr, nullptr);
    sqlite3_exec(h,
                 "CREATE TABLE ev(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER, f INTEGER, "
                 "g INTEGER, h INTEGER)",
                 nullptr, nullptr, nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    sqlite3_exec(h, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(h, "INSERT INTO ev VALUES (?,?,?,?,?,?,?,?)", -1, &st, nullptr);
    const std::int64_t base = 1767225600000000000; // 2026-01-01 in ns: realistic varint widths
    for (std::int64_t i = 0; i < rows; ++i) {
        sqlite3_bind_int64(st, 1, i % 16);
        sqlite3_bind_int64(st, 2, base + i * 9000);
        sqlite3_bind_int64(st, 3, base + i * 9000 + 30000);
        sqlite3_bind_int64(st, 4, i);
        sqlite3_bind_int64(st, 5, 7);
        sqlite3_bind_int64(st, 6, i % 70);
        sqlite3_bind_int64(st, 7, 132);
        sqlite3_bind_int64(st, 8, 256);
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_exec(h, "COMMIT", nullptr, nullptr, nullptr);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sqlite3_close(h);
    return s;
}

} // namespace cnp::bench
