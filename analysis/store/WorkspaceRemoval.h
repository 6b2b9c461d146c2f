#pragma once
// Removing a workspace a command created and then could not fill (a failed ingest, a `cnp run` where no job
// succeeded): nothing half-made stays behind.
#include <string>

namespace cnp {

// Removes the workspace at `path` — a study folder (`*.cnpstudy`, docs/schema.md) with everything in it,
// or a workspace file with its `-wal` and `-shm` — as far as it can. Never throws: on a read-only mount
// the removal fails, and its error must not replace the cause the caller reports (issue 33.7).
void removeCreatedWorkspace(const std::string& path) noexcept;

} // namespace cnp
