#pragma once
// Child processes without a shell: argv arrays only. Two forms:
//  - runProcess: run to completion in its own process group (a Ctrl-C at the terminal reaches only cnp,
//    which then stops what it started), stdin from a string, stdout and stderr captured (kubectl, podman
//    stop);
//  - ProcessGroup: start and leave running in its own process group, stdout and stderr appended to a log
//    file (or stdout on a pipe read without blocking: a `kubectl get --watch` stream), polled, and stopped
//    as a whole group (a workload and everything it forked).
#include "launch/CollectorEnvironment.h"

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
