#include "core/ResourceDir.h"

namespace cnp {

std::string resourceDir() {
    return CNP_RESOURCE_DIR;
}

} // namespace cnp
