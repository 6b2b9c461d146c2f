#pragma once
// Memory of a workspace connection kept open between reads.
namespace cnp {

class Workspace;

// Frees what the connection's page cache holds that no statement uses (sqlite3_db_release_memory; up to
// the workspace's cache size, 8 MB): a connection read once and kept open (a study's shard while the study
// is assembled, or while the clock fit reads a few ranks of each) then holds no cache between reads, so
// memory does not grow with the number of such connections. Reads after it fetch their pages anew.
// Only from the thread that uses the connection at the time. O(cached pages).
void releaseCacheMemory(const Workspace& ws);

} // namespace cnp
