#pragma once
// An advisory lock that keeps two `cnp run` off one workspace or one output folder (docs/launcher.md,
// "One study at a time"): two of them at once each moved the other's job folders aside and ingested the
// other's partial traces. The lock is flock(2) on a lock file (`<ws>.lock`, `<out>/.cnp-run.lock`) that
// names its holder — pid, host, start time (UTC) and command — for the message of whoever is refused.
// The kernel drops a flock when its holder dies, however it dies; a lock file left by a run that is gone
// (its pid dead on this host) is taken over with a note. A file naming a live process, or another host,
// whose flock is nevertheless free (a file system that does not share flocks) is refused all the same and
// the message says which file to remove once that run has ended.
#include <string>

namespace cnp::launch {

// Who holds (or held) a lock: the lock file's fields; empty when unknown.
struct LockHolder {
    long pid = 0;
    std::string host;
    std::string since; // ISO 8601 UTC
    std::string command;
};

class RunLock {
public:
    // Takes the lock of `lockFile` (created when missing) for `command`. Throws InputError naming `what`
    // (the workspace or the folder it protects) and the holder when another cnp run holds it.
    RunLock(const std::string& lockFile, const std::string& what, const std::string& command);
    ~RunLock(); // removes the lock file, then releases the lock
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    // Set when the lock was taken over from a run that is gone: one line for the user; else "".
    const std::string& note() const { return note_; }
    const std::string& path() const { return path_; }

private:
    void claim(const std::string& what, const std::string& command);

    std::string path_;
    int fd_ = -1;
    std::string note_;
};

// The lock file's text for `holder` ("pid: P\nhost: H\nsince: T\ncommand: C\n"), and back.
std::string lockFileText(const LockHolder& holder);
LockHolder parseLockFile(const std::string& text);

// "pid P on host H since T" (the parts that are known).
std::string describeHolder(const LockHolder& holder);

// This machine's host name ("" when unknown).
std::string hostName();

} // namespace cnp::launch
