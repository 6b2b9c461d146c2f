#pragma once
// Child processes without a shell: argv arrays only. Three forms:
//  - runProcess: run to completion in its own process group (a Ctrl-C at the terminal reaches only cnp,
//    which then stops what it started), stdin from a string, stdout and stderr captured (kubectl, podman
//    stop);
//  - streamToFile: the same with stdout written straight into a file, stopped when it stalls (a trace
//    coming back through `kubectl exec ... cat`);
//  - ProcessGroup: start and leave running in its own process group, stdout and stderr appended to a log
//    file (or stdout on a pipe read without blocking: a `kubectl get --watch` stream), polled, and stopped
//    as a whole group (a workload and everything it forked).
#include "launch/CollectorEnvironment.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cnp::launch {

// 128 + N when killed by signal N, else the exit code.
int exitCodeOf(int waitStatus);

struct ProcessResult {
    int exitCode = -1; // 127: could not be started (the reason is in err)
    std::string out, err;
};

// The child inherits this process's environment with `env` applied on top.
ProcessResult runProcess(const std::vector<std::string>& argv, const EnvList& env = {},
                         const std::string& input = {});

struct StreamResult {
    int exitCode = -1;       // exitCodeOf: 128 + 9 when stopped for stalling
    bool stalled = false;    // stopped: the file had not grown for the stall limit
    std::uint64_t bytes = 0; // the file's size at the end
    std::string err;         // stderr, its first 64 KiB
};

// Runs argv in its own process group, stdin from /dev/null, stdout written into `path` (created or
// truncated; never held in memory), stderr captured. No limit on the whole run: the group is killed only
// when the file has not grown for `stallMs`. `onProgress(bytes)` is called about once a second meanwhile.
StreamResult streamToFile(const std::vector<std::string>& argv, const std::string& path, int stallMs,
                          const std::function<void(std::uint64_t)>& onProgress = {});

class ProcessGroup {
public:
    enum class Stdout { ToLog, ToPipe };

    // Starts argv in a new process group with stdin from /dev/null and stdout+stderr appended to `logPath`
    // (stderr only with Stdout::ToPipe). Throws InputError naming argv[0] when it cannot fork or the log
    // cannot be opened; an exec failure shows as exit code 127 with the reason in the log.
    ProcessGroup(const std::vector<std::string>& argv, const EnvList& env, const std::string& logPath,
                 const std::string& workingDir = {}, Stdout out = Stdout::ToLog);
    ~ProcessGroup(); // kills the group if it still runs: no job outlives its launcher's bookkeeping
    ProcessGroup(const ProcessGroup&) = delete;
    ProcessGroup& operator=(const ProcessGroup&) = delete;

    pid_t pid() const { return pid_; }
    // The exit code (exitCodeOf) once the leader has exited; nullopt while it runs. Never blocks.
    std::optional<int> poll();
    // SIGTERM to the group, SIGKILL after `graceMs` if the leader has not exited; reaps it. Idempotent.
    int stop(int graceMs);

    // Stdout::ToPipe: what the child printed since the last call, never blocking ("" when nothing new).
    std::string readOutput();
    // Stdout::ToPipe: the child closed its stdout (it exited) and everything has been read.
    bool outputEnded() const { return pipe_ < 0; }

private:
    pid_t pid_ = -1;
    int pipe_ = -1; // read end of the stdout pipe
    std::optional<int> exit_;
};

} // namespace cnp::launch
