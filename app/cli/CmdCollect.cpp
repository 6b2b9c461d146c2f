// cnp collect [--out DIR] [--config LABEL] [--run NAME] [--capture SPEC] -- CMD ARGS...
// Runs CMD with the CUPTI collector injected (CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH, set by
// launch/CollectorEnvironment like every `cnp run` backend) and the CNP_* variables set, waits for
// it, lists the .cnpt files it produced, and exits with CMD's exit status (128 + signal when it was killed,
// 127 when it could not be started). SIGTERM and SIGHUP sent to cnp are passed on to CMD; SIGINT from the
// terminal reaches CMD directly and cnp waits for it to finish writing.
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "CaptureSpec.h"
#include "core/InputError.h"
#include "launch/CollectorEnvironment.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

namespace cnp::cli {
namespace {

namespace fs = std::filesystem;

volatile sig_atomic_t g_child = 0;

void forwardSignal(int sig) {
    if (g_child > 0)
        kill(static_cast<pid_t>(g_child), sig);
}

// .cnpt files in `dir` with their modification times (to tell which ones the command wrote).
std::map<std::string, fs::file_time_type> traceFiles(const fs::path& dir) {
    std::map<std::string, fs::file_time_type> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec) && e.path().extension() == ".cnpt")
            out[e.path().string()] = e.last_write_time(ec);
    return out;
}

int runCollect(const std::vector<std::string>& args) {
    ArgParser p({"--out", "--config", "--run", "--capture"}, {});
    p.parse(args);
    p.requirePositionals(0, 0, "no positional arguments before --");
    if (p.rest().empty())
        throw UsageFailure{"no command to run (cnp collect [OPTIONS] -- CMD ARGS...)"};
    const std::string capture = p.valueOr("--capture", "");
    const auto spec = cnp::collector::CaptureSpec::parse(capture);
    if (!spec.error.empty())
        throw UsageFailure{"--capture: " + spec.error.substr(spec.error.find(": ") + 2)};

    std::vector<std::string> looked;
    const std::string lib = launch::findCollectorLibrary(looked);
    if (lib.empty()) {
        std::string where;
        for (const auto& l : looked)
            where += (where.empty() ? "" : ", ") + l;
        throw InputError("libcnp-collector.so",
                         "not found (looked in " + where +
                             "); build it with CUPTI (CUDA 13) or set CNP_COLLECTOR_LIB");
    }
    const fs::path out = fs::absolute(p.valueOr("--out", "cnp-traces")).lexically_normal();
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out, ec))
        throw InputError(out.string(), "cannot create the output folder");
    const auto before = traceFiles(out);

    launch::CollectorSettings settings;
    settings.library = lib;
    settings.outputDir = out.string();
    settings.config = p.valueOr("--config", "");
    settings.run = p.valueOr("--run", "");
    settings.capture = capture.empty() ? "" : spec.describe();
    const launch::EnvList env = launch::collectorEnvironment(settings);

    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid < 0)
        throw InputError(p.rest().front(), std::string("cannot start (fork: ") + std::strerror(errno) + ")");
    if (pid == 0) {
        for (const auto& [k, v] : env)
            setenv(k.c_str(), v.c_str(), 1);
        std::vector<char*> argv;
        for (const auto& a : p.rest())
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        const std::string msg =
            "cnp collect: cannot run " + p.rest().front() + ": " + std::strerror(errno) + "\n";
        const ssize_t ignored = write(2, msg.data(), msg.size());
        (void)ignored;
        _exit(127);
    }
    g_child = pid;
    struct sigaction fwd {
    }, ign{}, oldTerm{}, oldHup{}, oldInt{};
    fwd.sa_handler = &forwardSignal;
    sigemptyset(&fwd.sa_mask);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGTERM, &fwd, &oldTerm);
    sigaction(SIGHUP, &fwd, &oldHup);
    sigaction(SIGINT, &ign, &oldInt);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    sigaction(SIGTERM, &oldTerm, nullptr);
    sigaction(SIGHUP, &oldHup, nullptr);
    sigaction(SIGINT, &oldInt, nullptr);
    g_child = 0;
    const int code =
        WIFEXITED(status) ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1);

    std::vector<std::string> produced;
    for (const auto& [path, mtime] : traceFiles(out)) {
        auto it = before.find(path);
        if (it == before.end() || it->second != mtime)
            produced.push_back(path);
    }
    if (produced.empty())
        std::cerr
            << "cnp collect: no trace written to " << out.string()
            << " (the command did not use CUDA, or the collector could not start: see its warning above)\n";
    else {
        std::cerr << "cnp collect: " << produced.size() << " trace file" << (produced.size() == 1 ? "" : "s")
                  << " in " << out.string() << " (cnp ingest WS " << out.string() << "):\n";
        for (const auto& f : produced)
            std::cerr << "  " << f << '\n';
    }
    return code;
}

} // namespace

CNP_COMMAND(
    "collect", "run a command with the CUPTI collector injected; writes .cnpt traces",
    "usage: cnp collect [--out DIR] [--config LABEL] [--run NAME] [--capture SPEC] -- CMD ARGS...\n"
    "\n"
    "Runs CMD with libcnp-collector.so injected through CUDA_INJECTION64_PATH (and NVTX_INJECTION64_PATH,\n"
    "so NVTX ranges from before CUDA's initialisation are recorded); every CUDA process it starts writes\n"
    "DIR/<host>-<pid>[-r<rank>].cnpt. Ingest them with `cnp ingest WS DIR`.\n"
    "\n"
    "  --out DIR        output folder (default ./cnp-traces; created if missing)\n"
    "  --config LABEL   configuration label stored in the traces (CNP_CONFIG)\n"
    "  --run NAME       run name stored in the traces (CNP_RUN)\n"
    "  --capture SPEC   what to record (CNP_CAPTURE): all (default) | time:DELAY[:DURATION] (seconds)\n"
    "                   | steps:START:COUNT[:PREFIX] (NVTX ranges named PREFIX<n>, default prefix 'step')\n"
    "\n"
    "The collector library is found through CNP_COLLECTOR_LIB or next to cnp. Other collector settings\n"
    "(CNP_FLUSH_MS, CNP_BUFFER_KB, CNP_BUFFER_COUNT, CNP_DRIVER_API, CNP_RUNTIME_API) pass through\n"
    "from the environment; see docs/collector.md.\n"
    "\n"
    "exit status: CMD's own; 128+N when CMD was killed by signal N; 127 when CMD could not be started;\n"
    "1 usage error; 2 when the collector library is missing.\n",
    runCollect);

} // namespace cnp::cli
