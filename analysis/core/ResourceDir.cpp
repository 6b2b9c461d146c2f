#include "core/ResourceDir.h"

#include <cstdlib>

namespace cnp {

std::string resourceDir() {
    if (const char* dir = std::getenv("CNP_RESOURCE_DIR"); dir && *dir)
        return dir;
    return CNP_RESOURCE_DIR;
}

} // namespace cnp
