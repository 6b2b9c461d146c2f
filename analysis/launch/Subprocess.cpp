#include "launch/Subprocess.h"

#include "core/InputError.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace cnp::launch {

namespace {

// argv and envp as the exec family wants them, built before fork (the child must not allocate).
struct ExecArgs {
    std::vector<std::string> envStrings;
    std::vector<char*> argv, envp;

    ExecArgs(const std::vector<std::string>& args, const EnvList& overrides) {
        EnvList env;
        for (char** e = environ; e && *e; ++e) {
            const char* eq = std::strchr(*e, '=');
            if (eq)
                env.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
        }
        for (const auto& [k, v] : mergeEnv(std::move(env), overrides))
            envStrings.push_back(k + "=" + v);
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        for (auto& s : envStrings)
            envp.push_back(s.data());
        envp.push_back(nullptr);
    }
};

// In the child after fork: exec, or report why not on stderr and exit 127.
[[noreturn]] void execOrDie(ExecArgs& a) {
    execvpe(a.argv[0], a.argv.data(), a.envp.data());
    const char* why = std::strerror(errno);
    const char* parts[] = {"cannot run ", a.argv[0], ": ", why, "\n"};
    for (const char* p : parts) {
        const ssize_t ignored = write(2, p, std::strlen(p));
        (void)ignored;
    }
    _exit(127);
}

// fork() whose child starts with default signal dispositions and an empty signal mask, whatever this
// process installed (Qt's or cnp run's handlers, an inherited SIG_IGN): all signals stay blocked from
// before the fork until the child has reset them, so a stop sent right after the fork cannot run the
// parent's handler in the child.
pid_t forkClean() {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const pid_t pid = fork();
    if (pid == 0) {
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int sig = 1; sig < NSIG; ++sig)
            sigaction(sig, &dfl, nullptr); // fails harmlessly for SIGKILL, SIGSTOP and reserved numbers
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, nullptr);
        return 0;
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return pid;
}

// Forks (forkClean) and execs argv in a process group of its own with `in`, `out` and `err` as its stdin,
// stdout and stderr, in `workingDir` when one is given. The group is set on both sides of the fork, so no
// signal sent to it can miss the child. Returns the pid, or -1 when fork failed (errno set); the caller
// still owns and closes the three descriptors.
pid_t startInOwnGroup(ExecArgs& a, int in, int out, int err, const std::string& workingDir = {}) {
    const pid_t pid = forkClean();
    if (pid == 0) {
        setpgid(0, 0); // out of the terminal's process group: Ctrl-C reaches cnp, which then cleans up
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        if (!workingDir.empty() && chdir(workingDir.c_str()) != 0) {
            const char msg[] = "cannot change to the working directory ";
            ssize_t ignored = write(2, msg, sizeof msg - 1);
            ignored = write(2, workingDir.data(), workingDir.size());
            ignored = write(2, "\n", 1);
            (void)ignored;
            _exit(127);
        }
        execOrDie(a);
    }
    if (pid > 0)
        setpgid(pid, pid);
    return pid;
}

// Reads what is available on `fd` into `out`; false at end of file.
bool drain(int fd, std::string& out) {
    char buf[16384];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
        out.append(buf, static_cast<std::size_t>(n));
        return true;
    }
    return n < 0 && (errno == EINTR || errno == EAGAIN);
}

int waitFor(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return exitCodeOf(status);
}

} // namespace

int exitCodeOf(int status) {
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

ProcessResult runProcess(const std::vector<std::string>& argv, const EnvList& env, const std::string& input) {
    ProcessResult r;
    if (argv.empty()) {
        r.exitCode = 127;
        r.err = "no program to run";
        return r;
    }
    ExecArgs a(argv, env);
    // stdin comes from an in-memory file, so a child that never reads it cannot block us (nor SIGPIPE us).
    const int in = memfd_create("cnp-stdin", MFD_CLOEXEC);
    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
    if (in < 0 || pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0 ||
        write(in, input.data(), input.size()) != static_cast<ssize_t>(input.size()) ||
        lseek(in, 0, SEEK_SET) != 0)
        throw InputError(argv.front(), std::string("cannot start: ") + std::strerror(errno));
    const pid_t pid = startInOwnGroup(a, in, outPipe[1], errPipe[1]);
    if (pid < 0)
        throw InputError(argv.front(), std::string("cannot start (fork: ") + std::strerror(errno) + ")");
    close(in);
    close(outPipe[1]);
    close(errPipe[1]);
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&r.out, &r.err};
    int open = 2;
    while (open > 0) {
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i)
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
                !drain(fds[i].fd, *sinks[i])) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
    }
    r.exitCode = waitFor(pid);
    return r;
}

namespace {

std::uint64_t fileSize(int fd) {
    struct stat st {};
    return fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

// Forks argv with stdin from /dev/null, stdout on `out`, stderr on `errWrite`; the caller closes both
// afterwards.
pid_t startStreaming(ExecArgs& a, int out, int errWrite) {
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const pid_t pid = startInOwnGroup(a, devNull, out, errWrite);
    if (devNull >= 0)
        close(devNull);
    return pid;
}

} // namespace

StreamResult streamToFile(const std::vector<std::string>& argv, const std::string& path, int stallMs,
                          const std::function<void(std::uint64_t)>& onProgress) {
    if (argv.empty())
        throw InputError(path, "no program to run");
    ExecArgs a(argv, {});
    const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0)
        throw InputError(path, std::string("cannot create: ") + std::strerror(errno));
    int errPipe[2] = {-1, -1};
    const pid_t pid = pipe2(errPipe, O_CLOEXEC) == 0 ? startStreaming(a, out, errPipe[1]) : -1;
    if (errPipe[1] >= 0)
        close(errPipe[1]);
    if (pid < 0) {
        close(out);
        if (errPipe[0] >= 0)
            close(errPipe[0]);
        throw InputError(argv.front(), std::string("cannot start: ") + std::strerror(errno));
    }
    using Clock = std::chrono::steady_clock;
    StreamResult r;
    auto grew = Clock::now(), reported = grew;
    pollfd fd{errPipe[0], POLLIN, 0};
    std::string err;
    // Until stderr ends (the child and anything it forked have exited or been killed).
    while (fd.fd >= 0) {
        if (::poll(&fd, 1, 200) > 0 && !drain(fd.fd, err)) {
            close(fd.fd);
            fd.fd = -1;
        }
        const std::uint64_t size = fileSize(out);
        const auto now = Clock::now();
        if (size != r.bytes) {
            r.bytes = size;
            grew = now;
        }
        if (!r.stalled && now - grew > std::chrono::milliseconds(stallMs)) {
            r.stalled = true;
            killpg(pid, SIGKILL);
        }
        if (onProgress && now - reported >= std::chrono::seconds(1)) {
            reported = now;
            onProgress(r.bytes);
        }
    }
    r.exitCode = waitFor(pid);
    killpg(pid, SIGKILL); // whatever the leader left behind
    r.bytes = fileSize(out);
    close(out);
    r.err = err.substr(0, std::size_t{64} * 1024);
    return r;
}

ProcessGroup::ProcessGroup(const std::vector<std::string>& argv, const EnvList& env,
                           const std::string& logPath, const std::string& workingDir, Stdout out) {
    if (argv.empty())
        throw InputError(logPath, "no program to run");
    ExecArgs a(argv, env);
    const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0)
        throw InputError(logPath, std::string("cannot open the log: ") + std::strerror(errno));
    int outPipe[2] = {-1, -1};
    if (out == Stdout::ToPipe && pipe2(outPipe, O_CLOEXEC) != 0) {
        close(log);
        throw InputError(argv.front(), std::string("cannot start (pipe: ") + std::strerror(errno) + ")");
    }
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_ = startInOwnGroup(a, devNull, out == Stdout::ToPipe ? outPipe[1] : log, log, workingDir);
    if (pid_ < 0) {
        close(log);
        for (int fd : outPipe)
            if (fd >= 0)
                close(fd);
        throw InputError(argv.front(), std::string("cannot start (fork: ") + std::strerror(errno) + ")");
    }
    close(log);
    if (devNull >= 0)
        close(devNull);
    if (out == Stdout::ToPipe) {
        close(outPipe[1]);
        pipe_ = outPipe[0];
        fcntl(pipe_, F_SETFL, fcntl(pipe_, F_GETFL) | O_NONBLOCK);
    }
}

ProcessGroup::~ProcessGroup() {
    if (pid_ > 0 && !exit_)
        stop(2000);
    if (pipe_ >= 0)
        close(pipe_);
}

std::string ProcessGroup::readOutput() {
    std::string out;
    while (pipe_ >= 0) {
        char buf[16384];
        const ssize_t n = read(pipe_, buf, sizeof buf);
        if (n > 0) {
            out.append(buf, static_cast<std::size_t>(n));
            if (out.size() >= (1u << 20))
                break; // the rest at the next call: one call's memory stays bounded
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (n == 0 || errno != EAGAIN) { // end of file (or a broken pipe): nothing more will come
                close(pipe_);
                pipe_ = -1;
            }
            break;
        }
    }
    return out;
}

std::optional<int> ProcessGroup::poll() {
    if (exit_ || pid_ <= 0)
        return exit_;
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_)
        exit_ = exitCodeOf(status);
    return exit_;
}

int ProcessGroup::stop(int graceMs) {
    if (poll())
        return *exit_;
    killpg(pid_, SIGTERM);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
    while (!poll() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    killpg(pid_, SIGKILL); // whatever is left of the group, leader included
    if (!exit_)
        exit_ = waitFor(pid_);
    return *exit_;
}

} // namespace cnp::launch
