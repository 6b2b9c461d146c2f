// collector-harness FAKE_CUPTI.so COLLECTOR.so|- SCENARIO   ("-": the collector named by
// CUDA_INJECTION64_PATH) Loads the fake CUPTI (RTLD_GLOBAL, soname libcupti.so.13) and then the real
// libcnp-collector.so, calls InitializeInjection() as the CUDA driver would, produces records through
// fakeCuptiEmit(), and leaves the way SCENARIO says, so tst_collectorprocess can check the .cnpt file each
// exit path leaves:
//   exit     3 steps x 10 launches, return from main            (atexit flush, End chunk)
//   fork     10 launches, fork; the child exits at once (its atexit must not touch the parent's file);
//            the parent emits 10 more and returns               (one file, 20 kernels, End chunk)
//   sigterm  10 launches, raise(SIGTERM) with the default action (forced flush, then killed by SIGTERM)
//   chain    like sigterm, but the program installed its own SIGTERM handler first: it must still run
//            (it prints "app handler" and exits 3)
//   sigkill  10 launches, sleep 0.6 s (CNP_FLUSH_MS=100 in the test), SIGKILL (periodic flush only)
//   untraced run with FAKE_CUPTI_SUBSCRIBE_FAIL=1, or a CUPTI the collector refuses or cannot find: one
//            warning, no file, exit 0
// FAKE_CUPTI.so "-": the harness loads no CUPTI; the collector finds one (CNP_CUPTI_PATH, CUDA_HOME).
//   nvtx     one NVTX range before "CUDA init" (NVTX's first call, which loads NVTX_INJECTION64_PATH), then
//            InitializeInjection, then 3 NVTX ranges "step N" through the NVTX API, 10 launches in each
//   workload the launcher's stand-in training job: like nvtx, with HARNESS_STEPS steps (default 3) of
//            HARNESS_STEP_MS ms each (default 0), printing "step N: throughput X tokens/s" with
//            X = HARNESS_THROUGHPUT + 100 N (default 1000) per step, then exiting HARNESS_EXIT (default 0);
//            without CUDA_INJECTION64_PATH it runs untraced (no collector), as an overhead-measuring
//            repeat does. Its arguments after SCENARIO are printed on stdout, one "arg: A" line each, and
//            HARNESS_ECHO, when set, as "echo: VALUE".
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// Set in the "fork" scenario's child, which only exits.
volatile sig_atomic_t forkedChild = 0;

void appHandler(int) {
    const char msg[] = "app handler\n";
    const ssize_t ignored = write(1, msg, sizeof msg - 1);
    (void)ignored;
    _exit(3);
}

int envInt(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

// NVTX ranges "step N" through the NVTX API, `launches` fake kernels in each.
void nvtxSteps(void (*emitKernels)(int), int steps, int launches, int stepMs, int throughputBase) {
    for (int i = 0; i < steps; ++i) {
        const std::string name = "step " + std::to_string(i);
        nvtxRangePushA(name.c_str());
        emitKernels(launches);
        if (stepMs > 0)
            usleep(static_cast<useconds_t>(stepMs) * 1000);
        nvtxRangePop();
        if (throughputBase > 0)
            std::printf("step %d: throughput %d tokens/s\n", i, throughputBase + 100 * i);
        std::fflush(stdout);
    }
}

// The workload scenario: the collector is optional (an untraced repeat has no CUDA_INJECTION64_PATH).
int runWorkload(void* cupti, int argc, char** argv) {
    for (int i = 4; i < argc; ++i)
        std::printf("arg: %s\n", argv[i]);
    if (const char* echo = std::getenv("HARNESS_ECHO"))
        std::printf("echo: %s\n", echo);
    nvtxRangePushA("before cuda init"); // NVTX's first call: loads NVTX_INJECTION64_PATH, if set
    nvtxRangePop();
    const char* collectorPath = std::getenv("CUDA_INJECTION64_PATH");
    auto emitKernels = reinterpret_cast<void (*)(int)>(dlsym(cupti, "fakeCuptiEmitKernels"));
    if (collectorPath && *collectorPath) {
        void* collector = dlopen(collectorPath, RTLD_NOW | RTLD_GLOBAL);
        auto init =
            collector ? reinterpret_cast<int (*)()>(dlsym(collector, "InitializeInjection")) : nullptr;
        if (!init || init() != 1) {
            std::fprintf(stderr, "harness: cannot inject %s\n", collectorPath);
            return 1;
        }
    }
    nvtxSteps(emitKernels, envInt("HARNESS_STEPS", 3), 10, envInt("HARNESS_STEP_MS", 0),
              envInt("HARNESS_THROUGHPUT", 1000));
    return envInt("HARNESS_EXIT", 0);
}

} // namespace

// Sanitized builds ask this before LeakSanitizer's exit-time check. The forked child skips it: clang 14's
// check locks the allocator, whose lock the collector's writer thread may have held at the fork, and
// that thread does not exist in the child, so the check waited forever (9 of 30 runs here). The parent
// is checked as always; in other builds nothing calls this.
extern "C" int __lsan_is_turned_off() {
    return forkedChild ? 1 : 0;
}

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: collector-harness FAKE_CUPTI.so COLLECTOR.so SCENARIO [ARGS...]\n");
        return 1;
    }
    const std::string scenario = argv[3];
    if (scenario == "chain")
        std::signal(SIGTERM, &appHandler);
    // FAKE_CUPTI.so "-": not loaded here; the collector must find a CUPTI itself (CNP_CUPTI_PATH, CUDA_HOME).
    const bool preload = std::strcmp(argv[1], "-") != 0;
    void* cupti = preload ? dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) : nullptr;
    if (preload && !cupti) {
        std::fprintf(stderr, "harness: %s\n", dlerror());
        return 1;
    }
    if (scenario == "workload")
        return runWorkload(cupti, argc, argv);
    if (scenario == "nvtx") {
        nvtxRangePushA("before cuda init"); // NVTX's first call: loads NVTX_INJECTION64_PATH, if set
        nvtxRangePop();
    }
    const char* collectorPath =
        std::strcmp(argv[2], "-") == 0 ? std::getenv("CUDA_INJECTION64_PATH") : argv[2];
    void* collector = collectorPath ? dlopen(collectorPath, RTLD_NOW | RTLD_GLOBAL) : nullptr;
    if (!collector) {
        std::fprintf(stderr, "harness: %s\n", collectorPath ? dlerror() : "CUDA_INJECTION64_PATH is not set");
        return 1;
    }
    auto init = reinterpret_cast<int (*)()>(dlsym(collector, "InitializeInjection"));
    if (!init || init() != 1) {
        std::fprintf(stderr, "harness: no InitializeInjection, or it did not return 1\n");
        return 1;
    }
    if (!cupti) // what the collector found, if anything (the fake's soname)
        cupti = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
    auto emit = cupti ? reinterpret_cast<void (*)(int)>(dlsym(cupti, "fakeCuptiEmit")) : nullptr;
    if (!emit && scenario == "untraced")
        return 0; // no fake CUPTI in the process (none, or a real one): nothing to emit
    if (!emit) {
        std::fprintf(stderr, "harness: no fake CUPTI in the process (fakeCuptiEmit)\n");
        return 1;
    }
    if (scenario == "exit" || scenario == "untraced") {
        for (int i = 0; i < 3; ++i)
            emit(10);
        return 0;
    }
    if (scenario == "nvtx") {
        nvtxSteps(reinterpret_cast<void (*)(int)>(dlsym(cupti, "fakeCuptiEmitKernels")), 3, 10, 0, 0);
        return 0;
    }
    if (scenario == "fork") {
        emit(10);
        const pid_t pid = fork();
        if (pid == 0) {
            forkedChild = 1;
            std::exit(0); // runs the inherited atexit handlers
        }
        int status = 0;
        waitpid(pid, &status, 0);
        emit(10);
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    }
    if (scenario == "sigterm" || scenario == "chain") {
        emit(10);
        raise(SIGTERM);
        return 0; // not reached when the signal kills or the app handler exits
    }
    if (scenario == "sigkill") {
        emit(10);
        usleep(600 * 1000);
        raise(SIGKILL);
        return 0;
    }
    std::fprintf(stderr, "harness: unknown scenario %s\n", scenario.c_str());
    return 1;
}
