#include "export/OutputFile.h"

#include "core/InputError.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace cnp {

namespace {
bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What a non-regular file is, for the message.
std::string kindOf(mode_t mode) {
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}
} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    refuseNonRegularTarget();
    buffer_.reserve(kBufferBytes);
    const int fd = createTemporary();
    if (endsWith(path_, ".gz")) {
        gz_ = gzdopen(fd, "wb6");
        if (gz_)
            gzbuffer(gz_, 256 * 1024);
    } else {
        file_ = ::fdopen(fd, "wb");
    }
    if (!gz_ && !file_) {
        const int err = errno;
        ::close(fd);
        std::error_code ec;
        std::filesystem::remove(partial_, ec);
        fail(std::string("cannot create file: ") + std::strerror(err));
    }
}

// A fresh file no one else can have prepared: O_EXCL fails on any existing name, dangling symlinks
// included, and the next name is tried. Mode 0666 less the umask, as for any new file.
int OutputFile::createTemporary() {
    constexpr int kAttempts = 100;
    const std::string stem = path_ + ".partial-" + std::to_string(::getpid()) + "-";
    for (int n = 0; n < kAttempts; ++n) {
        partial_ = stem + std::to_string(n);
        const int fd = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            fail(std::string("cannot create file: ") + std::strerror(errno));
    }
    fail("cannot create a temporary file next to it: " + std::to_string(kAttempts) + " names are taken");
}

OutputFile::~OutputFile() {
    if (committed_)
        return;
    if (gz_)
        gzclose(gz_);
    if (file_)
        std::fclose(file_);
    std::error_code ec;
    std::filesystem::remove(partial_, ec);
}

void OutputFile::refuseNonRegularTarget() {
    struct stat st {};
    if (::lstat(path_.c_str(), &st) != 0 || S_ISREG(st.st_mode))
        return; // absent (or unreadable: creating the temporary file next to it reports why) or regular
    fail("exists and is " + kindOf(st.st_mode) +
         "; refusing to replace it (only a regular file is "
         "overwritten): remove it or choose another path");
}

void OutputFile::fail(const std::string& what) {
    throw InputError(path_, what);
}

void OutputFile::drain() {
    if (buffer_.empty())
        return;
    if (gz_) {
        if (gzwrite(gz_, buffer_.data(), static_cast<unsigned>(buffer_.size())) !=
            static_cast<int>(buffer_.size())) {
            int err = 0;
            const char* msg = gzerror(gz_, &err);
            fail(std::string("write failed: ") + (err == Z_ERRNO ? std::strerror(errno) : msg));
        }
    } else if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
        fail(std::string("write failed: ") + std::strerror(errno));
    }
    buffer_.clear();
}

void OutputFile::commit() {
    drain();
    if (gz_) {
        const int rc = gzclose(gz_);
        gz_ = nullptr;
        if (rc != Z_OK)
            fail("write failed while finishing the gzip stream");
    } else {
        const bool ok = std::fflush(file_) == 0;
        const bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!ok || !closed)
            fail(std::string("write failed: ") + std::strerror(errno));
    }
    // Checked again: something may have appeared under the name while the file was written. (What
    // appears between this check and the rename is not caught; the folder's owner can do that anyway.)
    refuseNonRegularTarget();
    std::error_code ec;
    std::filesystem::rename(partial_, path_, ec);
    if (ec)
        fail("cannot move the finished file into place: " + ec.message());
    committed_ = true;
}

} // namespace cnp
