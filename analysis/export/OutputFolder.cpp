#include "export/OutputFolder.h"

#include "core/InputError.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace cnp {

namespace fs = std::filesystem;

namespace {

// "a symbolic link", "a FIFO (named pipe)", ... for an existing path that is not a folder; "" otherwise.
std::string notAFolder(const std::string& path, bool& exists) {
    struct stat st {};
    exists = ::lstat(path.c_str(), &st) == 0;
    if (!exists || S_ISDIR(st.st_mode))
        return {};
    if (S_ISLNK(st.st_mode))
        return "a symbolic link";
    if (S_ISREG(st.st_mode))
        return "a regular file";
    return "not a folder";
}

// What an existing `path` that is not a regular file is, as OutputFile names it; "" for a regular file or
// nothing.
std::string nonRegularKind(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode))
        return {};
    if (S_ISLNK(st.st_mode))
        return "a symbolic link";
    if (S_ISCHR(st.st_mode))
        return "a character device";
    if (S_ISBLK(st.st_mode))
        return "a block device";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(st.st_mode))
        return "a socket";
    if (S_ISDIR(st.st_mode))
        return "a directory";
    return "not a regular file";
}

void refuseNonRegular(const std::string& target) {
    if (const std::string kind = nonRegularKind(target); !kind.empty())
        throw InputError(target,
                         "exists and is " + kind +
                             "; refusing to replace it (only a regular file is overwritten): remove it "
                             "or choose another path");
}

} // namespace

OutputFolder::OutputFolder(std::string dir) : dir_(std::move(dir)) {
    while (dir_.size() > 1 && dir_.back() == '/')
        dir_.pop_back();
    bool exists = false;
    if (const std::string kind = notAFolder(dir_, exists); !kind.empty())
        throw InputError(dir_, "exists and is " + kind +
                                   "; refusing to write a folder there (only a folder "
                                   "is written into): remove it or choose another path");
    const fs::path parent = fs::path(dir_).parent_path();
    if (!parent.empty()) {
        // The topmost missing ancestor, removed again if the command fails.
        fs::path top;
        for (fs::path p = parent; !p.empty() && !fs::exists(p); p = p.parent_path()) {
            top = p;
            if (p == p.parent_path())
                break;
        }
        std::error_code ec;
        fs::create_directories(parent, ec);
        if (ec)
            throw InputError(dir_, "cannot create the output folder: " + ec.message());
        createdParent_ = top.string();
    }
    constexpr int kAttempts = 100;
    const std::string stem = dir_ + ".partial-" + std::to_string(::getpid()) + "-";
    for (int n = 0; n < kAttempts; ++n) {
        partial_ = stem + std::to_string(n);
        if (::mkdir(partial_.c_str(), 0777) == 0)
            return;
        if (errno != EEXIST) {
            const int err = errno;
            partial_.clear();
            if (!createdParent_.empty()) {
                std::error_code ec;
                fs::remove_all(createdParent_, ec);
            }
            throw InputError(dir_, std::string("cannot create the output folder: ") + std::strerror(err));
        }
    }
    partial_.clear();
    throw InputError(dir_, "cannot create a temporary folder next to it: " + std::to_string(kAttempts) +
                               " names are taken");
}

OutputFolder::~OutputFolder() {
    if (committed_)
        return;
    std::error_code ec;
    if (!partial_.empty())
        fs::remove_all(partial_, ec);
    if (!createdParent_.empty())
        fs::remove_all(createdParent_, ec);
}

std::string OutputFolder::file(const std::string& name) {
    refuseNonRegular((fs::path(dir_) / name).string()); // before the work; again at commit()
    files_.push_back(name);
    return (fs::path(partial_) / name).string();
}

void OutputFolder::commit() {
    bool exists = false;
    if (const std::string kind = notAFolder(dir_, exists); !kind.empty())
        throw InputError(dir_, "exists and is " + kind +
                                   "; refusing to write a folder there (only a folder "
                                   "is written into): remove it or choose another path");
    if (!exists) {
        if (::rename(partial_.c_str(), dir_.c_str()) != 0)
            throw InputError(dir_, std::string("cannot move the output folder into place: ") +
                                       std::strerror(errno));
    } else {
        // Into an existing folder, file by file; only a regular file (or nothing) is replaced.
        for (const auto& name : files_) {
            const std::string target = (fs::path(dir_) / name).string();
            refuseNonRegular(target);
            const std::string from = (fs::path(partial_) / name).string();
            if (::rename(from.c_str(), target.c_str()) != 0)
                throw InputError(target,
                                 std::string("cannot move the file into place: ") + std::strerror(errno));
        }
        std::error_code ec;
        fs::remove_all(partial_, ec);
    }
    committed_ = true;
}

} // namespace cnp
