#pragma once
// The workspace's transactions for the layers above the store, which never see its SQLite connection
// (docs/architecture.md, layer rules). Both return the RAII objects of store/Sqlite.h (guaranteed copy
// elision: `auto tx = writeTransaction(ws);`).
#include "store/Sqlite.h"
#include "store/Workspace.h"

namespace cnp {

// BEGIN IMMEDIATE on the workspace's connection (a study: its shards' too, Workspace::writeConnections);
// rolled back unless committed.
inline Transaction writeTransaction(Workspace& ws) {
    return Transaction(ws.writeConnections());
}

// A read snapshot of the workspace (ReadTransaction): every read until it ends sees one state.
inline ReadTransaction readSnapshot(const Workspace& ws) {
    return ReadTransaction(ws.db());
}

} // namespace cnp
