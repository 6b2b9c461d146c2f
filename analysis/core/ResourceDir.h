#pragma once

#include <string>

namespace cnp {

// The source tree's resources/ directory (bundled rules, plans, synth studies, demo traces), or the
// CNP_RESOURCE_DIR the build was configured with (the container image's /opt/cnp/resources); the
// environment variable CNP_RESOURCE_DIR, when set and not empty, overrides both. Compiled into one
// translation unit only, so the absolute path does not enter every object file's compile line (keeps
// ccache hits across checkouts).
std::string resourceDir();

} // namespace cnp
