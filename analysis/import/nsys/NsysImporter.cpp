#include "import/nsys/NsysImporter.h"

#include "core/InputError.h"
#include "import/nsys/NsysDatabase.h"
#include "import/nsys/NsysReader.h"
#include "store/Sqlite.h"

#include <sqlite3.h>

namespace cnp {

namespace nsys {

bool NsysImporter::canRead(const std::string& path, std::string_view head) const {
    if (!NsysDatabase::hasSqliteMagic(head))
        return false;
    // A CNP workspace is SQLite too, but never an import source.
    sqlite3* db = nullptr;
    bool workspace = false;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(
                db,
                "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('runs','meta',"
                "'kernels','cpu_ranges')",
                -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            workspace = sqlite3_column_int(st, 0) == 4;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return !workspace;
}

TraceData NsysImporter::read(const std::string& path, const ProgressSink& sink) const {
    try {
        NsysReader reader(path, sink);
        return reader.read();
    } catch (const SqliteError& e) {
        throw InputError(path, std::string("unreadable Nsight Systems export: ") + e.what());
    }
}

} // namespace nsys

std::unique_ptr<Importer> makeNsysImporter() {
    return std::make_unique<nsys::NsysImporter>();
}

} // namespace cnp
