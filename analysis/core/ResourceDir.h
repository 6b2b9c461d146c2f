#pragma once

#include <string>

namespace cnp {

// The resources folder (bundled rules, plans, synth studies, demo traces), first match of:
//  1. $CNP_RESOURCE_DIR, when set and not empty;
//  2. an installed tree's `<prefix>/share/cnp/resources`, found from the running executable
//     (`<prefix>/bin/cnp`, /proc/self/exe) when it holds rules/categories.json: a package relocated
//     anywhere (dpkg-deb -x into a folder, another prefix) finds its own files;
//  3. the CNP_RESOURCE_DIR the build was configured with (the source tree's resources/, or the container
//     image's /opt/cnp/resources).
// Compiled into one translation unit only, so the absolute path does not enter every object file's
// compile line (keeps ccache hits across checkouts).
std::string resourceDir();

} // namespace cnp
