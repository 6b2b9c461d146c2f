#include "core/ResourceDir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace cnp {

namespace {

// `<prefix>/share/cnp/resources` of the prefix the running executable lives in (`<prefix>/bin/…`), or
// empty when it is not an installed tree (the build tree's programs live in build/app/…).
std::string installedResourceDir() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty())
        return {};
    const std::filesystem::path dir = exe.parent_path().parent_path() / "share" / "cnp" / "resources";
    return std::filesystem::is_regular_file(dir / "rules" / "categories.json", ec) ? dir.string()
                                                                                   : std::string();
}

} // namespace

std::string resourceDir() {
    if (const char* dir = std::getenv("CNP_RESOURCE_DIR"); dir && *dir)
        return dir;
    // Looked up once: the executable does not move while it runs.
    static const std::string installed = installedResourceDir();
    if (!installed.empty())
        return installed;
    return CNP_RESOURCE_DIR;
}

} // namespace cnp
