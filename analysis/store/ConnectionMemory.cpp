#include "store/ConnectionMemory.h"

#include "store/Workspace.h"

#include <sqlite3.h>

namespace cnp {

void releaseCacheMemory(const Workspace& ws) {
    sqlite3_db_release_memory(ws.db());
}

} // namespace cnp
