#pragma once
// Reads the workspace-wide choices (core/WorkspaceSettings.h) in one read transaction. O(plan size).
#include "core/WorkspaceSettings.h"

namespace cnp {

class Workspace;

WorkspaceSettings readWorkspaceSettings(const Workspace& ws);

} // namespace cnp
