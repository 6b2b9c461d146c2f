#include "FuzzSupport.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <unistd.h>

namespace cnp::fuzz {

namespace {

// Removes the scratch folder when the process ends normally (libFuzzer exits through exit()).
struct ScratchFolder {
    std::string path;
    ScratchFolder() {
        const char* tmp = std::getenv("TMPDIR");
        path = std::string(tmp && *tmp ? tmp : "/tmp") + "/cnp-fuzz-" + std::to_string(::getpid());
        std::filesystem::create_directories(path);
    }
    ~ScratchFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

} // namespace

const std::string& scratchDir() {
    static const ScratchFolder folder;
    return folder.path;
}

const std::string& writeScratch(const std::string& name, const std::uint8_t* data, std::size_t size) {
    static std::map<std::string, std::string> paths;
    auto [it, isNew] = paths.emplace(name, std::string());
    if (isNew)
        it->second = scratchDir() + "/" + name;
    std::ofstream out(it->second, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return it->second;
}

} // namespace cnp::fuzz
