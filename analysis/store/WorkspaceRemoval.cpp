#include "store/WorkspaceRemoval.h"

#include <filesystem>
#include <system_error>

namespace cnp {

void removeCreatedWorkspace(const std::string& path) noexcept {
    namespace fs = std::filesystem;
    try {
        std::error_code ec;
        if (fs::is_directory(path, ec)) {
            fs::remove_all(path, ec);
            return;
        }
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(path + suffix, ec);
    } catch (...) { // std::string's allocations: nothing to do but leave what is there
    }
}

} // namespace cnp
