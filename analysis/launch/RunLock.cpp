#include "launch/RunLock.h"

#include "core/InputError.h"
#include "core/UtcTime.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace cnp::launch {

namespace {

constexpr std::size_t kMaxLockFileBytes = 8192;

std::string readLockFile(int fd) {
    std::string text(kMaxLockFileBytes, '\0');
    const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return text;
}

// A holder that has its flock writes its fields just after: a reader refused in between sees an empty file
// for a moment, so it looks again a few times (at most about a second).
LockHolder readHolder(int fd) {
    std::string text = readLockFile(fd);
    for (int i = 0; i < 20 && text.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        text = readLockFile(fd);
    }
    return parseLockFile(text);
}

bool processAlive(long pid) {
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

// Still the file at `path`? A holder removes its lock file before it releases the lock, so a flock taken on
// a file that has meanwhile been removed (or replaced) locks nothing anyone else sees.
bool sameFile(int fd, const std::string& path) {
    struct stat open {
    }, named{};
    return ::fstat(fd, &open) == 0 && ::stat(path.c_str(), &named) == 0 && open.st_dev == named.st_dev &&
           open.st_ino == named.st_ino;
}

std::string oneLine(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r')
            c = ' ';
    return s;
}

std::string usedBy(const std::string& what, const LockHolder& h) {
    std::string s = what + " is being used by cnp run (" + describeHolder(h) + ")";
    if (!h.command.empty())
        s += ": " + h.command;
    return s;
}

} // namespace

std::string lockFileText(const LockHolder& h) {
    return "pid: " + std::to_string(h.pid) + "\nhost: " + oneLine(h.host) + "\nsince: " + oneLine(h.since) +
           "\ncommand: " + oneLine(h.command) + "\n";
}

LockHolder parseLockFile(const std::string& text) {
    LockHolder h;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(": ");
        if (colon == std::string::npos)
            continue;
        const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
        if (key == "pid")
            h.pid = std::strtol(value.c_str(), nullptr, 10);
        else if (key == "host")
            h.host = value;
        else if (key == "since")
            h.since = value;
        else if (key == "command")
            h.command = value;
    }
    return h;
}

std::string describeHolder(const LockHolder& h) {
    if (h.pid <= 0 && h.host.empty())
        return "holder unknown: its lock file names none";
    std::string s = "pid " + (h.pid > 0 ? std::to_string(h.pid) : std::string("?"));
    if (!h.host.empty())
        s += " on host " + h.host;
    if (!h.since.empty())
        s += " since " + h.since;
    return s;
}

std::string hostName() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0)
        return {};
    return buf;
}

RunLock::RunLock(const std::string& lockFile, const std::string& what, const std::string& command)
    : path_(lockFile) {
    // A holder may remove the file between our open and our flock; then the lock is taken again on the
    // file that is there now (a handful of rounds at most, even with several runs starting at once).
    for (int round = 0; round < 100; ++round) {
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw InputError(path_, std::string("cannot create the lock file: ") + std::strerror(errno));
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            if (err == EWOULDBLOCK) {
                const LockHolder h = readHolder(fd_);
                ::close(fd_);
                fd_ = -1;
                throw InputError(path_, usedBy(what, h));
            }
            // A file system without flock: the lock file's content is all there is to go by (claim).
        } else if (!sameFile(fd_, path_)) {
            ::close(fd_);
            fd_ = -1;
            continue;
        }
        claim(what, command);
        return;
    }
    throw InputError(path_, "cannot take the lock: the lock file keeps being replaced");
}

// The lock is ours unless the file still names a run that may be alive: this host's live process (the
// flock did not stop us: a file system that does not share flocks, or the pid is reused) or one on another
// host (whose liveness cannot be checked from here). A run that is gone is taken over with a note.
void RunLock::claim(const std::string& what, const std::string& command) {
    const LockHolder old = parseLockFile(readLockFile(fd_));
    const std::string self = hostName();
    if (old.pid > 0 && old.pid != ::getpid()) {
        const bool here = old.host == self;
        if (!here || processAlive(old.pid)) {
            ::close(fd_);
            fd_ = -1;
            throw InputError(path_,
                             usedBy(what, old) + " (its lock file is there but its lock is free: " +
                                 (here ? "if that process is not a cnp run" : "if that run has ended") +
                                 ", remove " + path_ + ")");
        }
        note_ = "took over the lock of " + what + " from a cnp run that is gone (" + describeHolder(old) +
                "): " + path_;
    }
    const std::string text = lockFileText({::getpid(), self, utcNowIso8601(), command});
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, text.data(), text.size(), 0) != ssize_t(text.size())) {
        const std::string why = std::strerror(errno);
        ::close(fd_);
        fd_ = -1;
        throw InputError(path_, "cannot write the lock file: " + why);
    }
}

RunLock::~RunLock() {
    if (fd_ < 0)
        return;
    ::unlink(path_.c_str()); // before the release: whoever waits then finds the file gone and starts anew
    ::close(fd_);
}

} // namespace cnp::launch
