#pragma once

#include <string>

namespace cnp {

// The source tree's resources/ directory (bundled rules, plans, synth studies, demo traces).
// Compiled into one translation unit only, so the absolute path does not enter every object
// file's compile line (keeps ccache hits across checkouts).
std::string resourceDir();

} // namespace cnp
