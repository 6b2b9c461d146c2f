#pragma once
// The MFU inputs entered for a whole workspace (metrics/MfuInputs.h; meta keys mfu_flops_per_token,
// mfu_peak_flops, docs/schema.md).
#include "metrics/MfuInputs.h"
#include "store/Workspace.h"

namespace cnp {

// 0 where a key is unset or empty. Throws InputError naming the workspace when a stored value is not a
// finite number >= 0 (workspace content is input like any other).
MfuInputs workspaceMfuInputs(const Workspace& ws);
// Stores both keys (0 clears one: its value becomes empty). Throws InputError for a value that is
// negative or not finite; nothing is stored then.
void storeMfuInputs(Workspace& ws, const MfuInputs& inputs);

} // namespace cnp
