#include "Collector.h"

#include "CuptiLibrary.h"
#include "RecordTranslator.h"

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

extern char** environ;
extern "C" int InitializeInjection(void);

namespace cnp::collector {

namespace {

constexpr const char* kProducer = "libcnp-collector 0.1.0";
// The CUPTI found at run time (CuptiLibrary): set once by Collector::subscribeToCupti before any CUPTI
// callback can run, never changed afterwards; every CUPTI call goes through it.
const CuptiLibrary* g_cupti = nullptr;

std::uint64_t realtimeNs() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

const char* resultText(CUptiResult r) {
    const char* s = nullptr;
    if (g_cupti->cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
        return "unknown CUPTI error";
    return s;
}

const char* apiName(bool driver, std::uint32_t cbid) {
    const char* name = nullptr;
    if (g_cupti->cuptiGetCallbackName(driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API, cbid,
                                      &name) != CUPTI_SUCCESS)
        return nullptr;
    return name;
}

// mkdir -p; true when the folder exists afterwards.
bool makeDirs(const std::string& dir) {
    std::string cur;
    for (std::size_t i = 0; i <= dir.size(); ++i) {
        if (i == dir.size() || dir[i] == '/') {
            if (!cur.empty())
                ::mkdir(cur.c_str(), 0755);
        }
        if (i < dir.size())
            cur += dir[i];
    }
    struct stat st {};
    return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Activity kinds gated by the capture window (the rest are always on: cheap and needed to read the trace).
constexpr CUpti_ActivityKind kHeavyKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2,           CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    CUPTI_ACTIVITY_KIND_MEMORY2,           CUPTI_ACTIVITY_KIND_OVERHEAD};
constexpr CUpti_ActivityKind kLightKinds[] = {CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT,
                                              CUPTI_ACTIVITY_KIND_NAME, CUPTI_ACTIVITY_KIND_MARKER,
                                              CUPTI_ACTIVITY_KIND_MARKER_DATA};
// Driver APIs recorded by default (CNP_DRIVER_API=launch): the ones that launch work, e.g. Triton's
// cuLaunchKernel, so every kernel finds its launching call.
constexpr CUpti_driver_api_trace_cbid kLaunchDriverApis[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};

// Runtime APIs left out by default (CNP_RUNTIME_API=quiet): state queries that frameworks call around every
// launch (PyTorch calls cudaGetDevice ~10 times per kernel) and that launch no work. Recording them cost
// most of the collector's overhead and 80% of its records in the llama workload (tests/gpu).
constexpr CUpti_runtime_api_trace_cbid kQuietRuntimeApis[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000,
    CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetFuncBySymbol_v11000,
    CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_ptsz_v11030,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_v12050,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_ptsz_v12050};

constexpr int kSignals[] = {SIGTERM, SIGINT};
struct sigaction g_previous[2];

} // namespace

struct CollectorCallbacks {
    static void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
        auto& c = Collector::instance();
        *maxRecords = 0;
        *buffer = c.pool_ ? c.pool_->acquire() : nullptr;
        *size = *buffer ? c.pool_->bufferSize() : 0; // no buffer: CUPTI drops and counts the records
    }

    static void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t /*size*/,
                                         size_t validSize) {
        auto& c = Collector::instance();
        if (!buffer || !c.pool_)
            return;
        CompletedBuffer b;
        b.data = buffer;
        b.validBytes = validSize;
        size_t dropped = 0;
        if (g_cupti->cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped) == CUPTI_SUCCESS)
            b.dropped = dropped;
        b.stream = streamId;
        c.pool_->complete(b);
        sem_post(&c.wake_);
    }

    // NVTX callback, used only for CNP_CAPTURE=steps:...: opens/closes the window on the step's push.
    static void CUPTIAPI nvtxCallback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                      const void* data) {
        if (domain != CUPTI_CB_DOMAIN_NVTX || !data)
            return;
        auto& c = Collector::instance();
        if (static_cast<long>(getpid()) != c.ownerPid_.load())
            return;
        const auto* nv = static_cast<const CUpti_NvtxData*>(data);
        const char* message = nullptr;
        if (!nv->functionParams)
            return;
        if (cbid == CUPTI_CBID_NVTX_nvtxRangePushA)
            message = static_cast<const nvtxRangePushA_params*>(nv->functionParams)->message;
        else if (cbid == CUPTI_CBID_NVTX_nvtxRangeStartA)
            message = static_cast<const nvtxRangeStartA_params*>(nv->functionParams)->message;
        else if (cbid == CUPTI_CBID_NVTX_nvtxRangePushEx || cbid == CUPTI_CBID_NVTX_nvtxDomainRangePushEx) {
            const nvtxEventAttributes_t* a =
                cbid == CUPTI_CBID_NVTX_nvtxRangePushEx
                    ? static_cast<const nvtxRangePushEx_params*>(nv->functionParams)->eventAttrib
                    : static_cast<const nvtxDomainRangePushEx_params*>(nv->functionParams)->core.eventAttrib;
            if (a && a->messageType == NVTX_MESSAGE_TYPE_ASCII)
                message = a->message.ascii;
        }
        long step = 0;
        if (!message || !CaptureSpec::matchStep(message, c.config_.capture.stepPrefix, step))
            return;
        const auto& cap = c.config_.capture;
        if (step == cap.startStep)
            c.setHeavyEnabled(true);
        else if (cap.stepCount > 0 && step == cap.startStep + cap.stepCount)
            c.setHeavyEnabled(false);
    }

    static void atExit() { Collector::instance().finish(); }

    static void atForkChild() {
        // The child holds a copy of the parent's state but none of its threads: forget everything, touch no
        // file and no CUPTI call. ownerPid_ no longer matches getpid(), which silences every entry point.
        auto& c = Collector::instance();
        c.running_ = false;
        c.finished_ = true;
        c.writer_.abandon();
    }

    static void onSignal(int sig, siginfo_t* info, void* uctx) {
        const int saved = errno;
        auto& c = Collector::instance();
        if (static_cast<long>(getpid()) == c.ownerPid_.load() && c.running_)
            c.requestFlushFromSignal(sig == SIGTERM);
        const int i = sig == SIGTERM ? 0 : 1;
        const struct sigaction& prev = g_previous[i];
        errno = saved;
        if (prev.sa_flags & SA_SIGINFO) {
            if (prev.sa_sigaction)
                prev.sa_sigaction(sig, info, uctx);
        } else if (prev.sa_handler == SIG_IGN) {
            return;
        } else if (prev.sa_handler == SIG_DFL) {
            // Restore the default action and re-raise: delivered when this handler returns.
            sigaction(sig, &prev, nullptr);
            raise(sig);
        } else if (prev.sa_handler) {
            prev.sa_handler(sig);
        }
    }
};

Collector& Collector::instance() {
    static Collector* c = new Collector(); // never destroyed: atexit handlers of others may still run
    return *c;
}

void Collector::warnOnce(const std::string& message) {
    if (warned_.exchange(true))
        return;
    const std::string line = "cnp-collector: " + message + "\n";
    const ssize_t ignored = ::write(2, line.data(), line.size());
    (void)ignored;
}

bool Collector::enableActivities(bool heavy) {
    if (heavy) {
        for (auto k : kHeavyKinds) {
            const CUptiResult r = g_cupti->cuptiActivityEnable(k);
            if (r != CUPTI_SUCCESS && k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
                warnOnce(std::string("cannot record kernels (") + resultText(r) + "); the job runs untraced");
                return false;
            }
        }
        // After enabling the RUNTIME kind (which resets per-API choices): leave the quiet queries out.
        if (!config_.allRuntimeApis)
            for (auto cbid : kQuietRuntimeApis)
                g_cupti->cuptiActivityEnableRuntimeApi(cbid, 0);
        if (config_.driverApi == CollectorConfig::DriverApi::All)
            g_cupti->cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER);
    } else {
        for (auto k : kLightKinds)
            g_cupti->cuptiActivityEnable(k);
        // Per-API driver selection takes effect only when made at injection (seen on CUDA 13.0: enabling it
        // mid-run records nothing), so launch APIs are on for the whole run, outside the capture window too;
        // they are a few hundred records per step.
        if (config_.driverApi == CollectorConfig::DriverApi::Launch)
            for (auto cbid : kLaunchDriverApis)
                g_cupti->cuptiActivityEnableDriverApi(cbid, 1);
    }
    return true;
}

void Collector::setHeavyEnabled(bool on) {
    std::lock_guard lock(enableMutex_);
    if (heavyEnabled_ == on || !running_)
        return;
    if (on) {
        enableActivities(true);
    } else {
        for (auto k : kHeavyKinds)
            g_cupti->cuptiActivityDisable(k);
        if (config_.driverApi == CollectorConfig::DriverApi::All)
            g_cupti->cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER);
    }
    heavyEnabled_ = on;
}

void Collector::writeHeader() {
    char host[HOST_NAME_MAX + 1] = {};
    gethostname(host, sizeof host - 1);
    std::vector<std::pair<std::string, std::string>> kv = {
        {cnpt::key::kProducer, kProducer},
        {cnpt::key::kHost, host},
        {cnpt::key::kPid, std::to_string(getpid())},
        {cnpt::key::kRank, std::to_string(config_.rank)},
        {cnpt::key::kLocalRank, std::to_string(config_.localRank)},
        {cnpt::key::kWorldSize, std::to_string(config_.worldSize)},
        {cnpt::key::kCuptiVersion, std::to_string(cuptiVersion_)},
        {cnpt::key::kConfig, config_.config},
        {cnpt::key::kRun, config_.run},
        {cnpt::key::kImage, config_.image},
        {cnpt::key::kCapture, config_.capture.describe()},
        {cnpt::key::kStartRealtime, std::to_string(startRealtimeNs_)},
        {"flush_ms", std::to_string(config_.flushMs)},
        {"runtime_api", config_.allRuntimeApis ? "all" : "quiet"},
        {"buffer_bytes", std::to_string(config_.bufferBytes)},
        {"buffer_count", std::to_string(config_.bufferCount)},
        {"driver_api", config_.driverApi == CollectorConfig::DriverApi::All
                           ? "all"
                           : (config_.driverApi == CollectorConfig::DriverApi::None ? "none" : "launch")},
    };
    // Driver and runtime versions through whatever the process already loaded (we link neither). The CUDA
    // runtime usually loads libcuda with RTLD_LOCAL, so look it up by name as well as globally.
    using VersionFn = int (*)(int*);
    auto lookup = [](const char* lib, const char* symbol) -> VersionFn {
        void* f = dlsym(RTLD_DEFAULT, symbol);
        if (!f)
            if (void* h = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD)) {
                f = dlsym(h, symbol);
                dlclose(h);
            }
        return reinterpret_cast<VersionFn>(f);
    };
    if (auto f = lookup("libcuda.so.1", "cuDriverGetVersion")) {
        int v = 0;
        if (f(&v) == 0)
            kv.emplace_back(cnpt::key::kDriverVersion, std::to_string(v));
    }
    if (auto f = lookup("libcudart.so.13", "cudaRuntimeGetVersion")) {
        int v = 0;
        if (f(&v) == 0)
            kv.emplace_back(cnpt::key::kCudaVersion, std::to_string(v));
    }
    char exe[4096] = {};
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
        kv.emplace_back(cnpt::key::kCommand, std::string(exe, static_cast<std::size_t>(n)));
    for (const auto& [k, v] : config_.allowedEnv)
        kv.emplace_back("env." + k, v);
    writer_.writeHeader(kv);
}

bool Collector::configure() {
    config_ = CollectorConfig::fromEnvironment(environ);
    if (config_.disabled)
        return false;
    const bool poolFits = config_.boundBuffers(readMemoryLimits(""));
    for (const auto& w : config_.warnings) {
        const std::string line = "cnp-collector: " + w + "\n";
        const ssize_t ignored = ::write(2, line.data(), line.size());
        (void)ignored;
    }
    return poolFits;
}

bool Collector::subscribeToCupti() {
    std::string why;
    g_cupti = CuptiLibrary::get(why);
    if (!g_cupti) {
        warnOnce(why + "; the job runs untraced");
        return false;
    }
    cuptiVersion_ = g_cupti->version;
    CUptiResult r = CUPTI_SUCCESS;
    CUpti_SubscriberHandle sub = nullptr;
    r = g_cupti->cuptiSubscribe(&sub, &CollectorCallbacks::nvtxCallback, nullptr);
    if (r != CUPTI_SUCCESS) {
        warnOnce(std::string("cannot subscribe to CUPTI (") + resultText(r) +
                 "; another profiler may hold it); the job runs untraced");
        return false;
    }
    subscriber_ = sub;
    return true;
}

bool Collector::openOutput() {
    if (!makeDirs(config_.outputDir)) {
        warnOnce("cannot create output folder '" + config_.outputDir + "'; the job runs untraced");
        return false;
    }
    char host[HOST_NAME_MAX + 1] = {};
    gethostname(host, sizeof host - 1);
    path_ = config_.outputPath(host, getpid());
    if (!writer_.open(path_)) {
        warnOnce(writer_.error() + "; the job runs untraced");
        return false;
    }
    pool_ = std::make_unique<BufferPool>(config_.bufferCount, config_.bufferBytes);
    const CUptiResult r = g_cupti->cuptiActivityRegisterCallbacks(&CollectorCallbacks::bufferRequested,
                                                                  &CollectorCallbacks::bufferCompleted);
    if (r != CUPTI_SUCCESS) {
        warnOnce(std::string("cannot register CUPTI buffers (") + resultText(r) + "); the job runs untraced");
        writer_.abandon();
        ::unlink(path_.c_str());
        return false;
    }
    return true;
}

void Collector::beginCapture() {
    enableActivities(false);
    const bool windowFromStart =
        config_.capture.mode == CaptureSpec::Mode::All ||
        (config_.capture.mode == CaptureSpec::Mode::Time && config_.capture.delaySeconds == 0);
    if (windowFromStart)
        setHeavyEnabled(true);
    if (config_.capture.mode == CaptureSpec::Mode::Steps)
        g_cupti->cuptiEnableDomain(1, static_cast<CUpti_SubscriberHandle>(subscriber_), CUPTI_CB_DOMAIN_NVTX);
    // Late fallback for libraries whose first NVTX call is still to come (each reads NVTX_INJECTION64_PATH
    // then): point it at this library, which hands over to the CUPTI copy it is bound to. Launchers set the
    // variable before the process starts, which also covers NVTX calls made before CUDA's initialisation.
    if (!getenv("NVTX_INJECTION64_PATH")) {
        Dl_info info{};
        if (dladdr(reinterpret_cast<void*>(&InitializeInjection), &info) && info.dli_fname)
            setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
    }
}

void Collector::installProcessHooks() {
    pthread_atfork(nullptr, nullptr, &CollectorCallbacks::atForkChild);
    std::atexit(&CollectorCallbacks::atExit);
    for (int i = 0; i < 2; ++i) {
        struct sigaction sa {};
        sa.sa_sigaction = &CollectorCallbacks::onSignal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(kSignals[i], &sa, &g_previous[i]);
    }
}

bool Collector::start() {
    if (running_ || finished_)
        return running_;
    if (!configure() || !subscribeToCupti())
        return false;
    if (!openOutput()) {
        g_cupti->cuptiUnsubscribe(static_cast<CUpti_SubscriberHandle>(subscriber_));
        subscriber_ = nullptr;
        return false;
    }
    ownerPid_ = static_cast<long>(getpid());
    startRealtimeNs_ = realtimeNs();
    sem_init(&wake_, 0, 0);
    sem_init(&flushDone_, 0, 0);
    sem_init(&writerExited_, 0, 0);
    writeHeader();
    writeClockPair();
    writer_.flush();
    running_ = true;
    beginCapture();
    try {
        thread_ = std::thread([this] { writerLoop(); });
    } catch (...) {
        warnOnce("cannot start the writer thread; the job runs untraced");
        running_ = false;
        return false;
    }
    installProcessHooks();
    return true;
}

void Collector::writeClockPair() {
    cnpt::ClockPairRecord p{};
    g_cupti->cuptiGetTimestamp(&p.cuptiBefore);
    p.realtimeNs = realtimeNs();
    g_cupti->cuptiGetTimestamp(&p.cuptiAfter);
    writer_.add(cnpt::RecordType::ClockPair, p);
}

void Collector::drainCompleted() {
    static RecordTranslator* translator = nullptr; // writer thread only
    if (!translator)
        translator = new RecordTranslator(writer_, &apiName);
    CompletedBuffer b;
    while (pool_->popCompleted(b)) {
        CUpti_Activity* rec = nullptr;
        while (b.validBytes > 0 &&
               g_cupti->cuptiActivityGetNextRecord(b.data, b.validBytes, &rec) == CUPTI_SUCCESS)
            translator->translate(rec);
        if (b.dropped > 0) {
            cnpt::DroppedRecord d{};
            d.realtimeNs = realtimeNs();
            d.count = b.dropped;
            d.stream = b.stream;
            writer_.add(cnpt::RecordType::Dropped, d);
            dropped_ += b.dropped;
        }
        pool_->release(b.data);
    }
}

void Collector::requestFlushFromSignal(bool forced) {
    // Async-signal-safe: atomics and semaphores only. Waits at most 3 s for the writer thread.
    signalFlush_ = forced ? 2 : 1;
    sem_post(&wake_);
    timespec until{};
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 3;
    while (sem_timedwait(&flushDone_, &until) != 0 && errno == EINTR) {
    }
}

void Collector::writerLoop() {
    const std::uint64_t periodNs = static_cast<std::uint64_t>(config_.flushMs) * 1000000ull;
    const std::uint64_t t0 = monotonicNs();
    std::uint64_t nextFlush = t0 + periodNs;
    const auto& cap = config_.capture;
    bool windowClosed = false;
    while (!stopping_) {
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000000L; // wake at least every 200 ms for the window and signals
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        sem_timedwait(&wake_, &until);
        if (stopping_)
            break;
        drainCompleted();
        const std::uint64_t now = monotonicNs();
        if (cap.mode == CaptureSpec::Mode::Time && !windowClosed) {
            const double elapsed = static_cast<double>(now - t0) / 1e9;
            if (cap.durationSeconds > 0 && elapsed >= cap.delaySeconds + cap.durationSeconds) {
                setHeavyEnabled(false);
                windowClosed = true;
            } else if (elapsed >= cap.delaySeconds) {
                setHeavyEnabled(true);
            }
        }
        const int signalled = signalFlush_.exchange(0);
        const bool bySignal = signalled != 0;
        if (bySignal || now >= nextFlush) {
            g_cupti->cuptiActivityFlushAll(signalled == 2 ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
            drainCompleted();
            writeClockPair();
            writer_.flush(bySignal);
            nextFlush = now + periodNs;
            if (bySignal)
                sem_post(&flushDone_);
        }
    }
    drainCompleted();
    sem_post(&writerExited_);
}

void Collector::finish() {
    if (static_cast<long>(getpid()) != ownerPid_.load() || !running_ || finished_.exchange(true))
        return;
    // Forced flush from the exiting thread (CUPTI hands the buffers to bufferCompleted synchronously),
    // then let the writer drain and stop. Bounded: a writer stuck in CUPTI is abandoned after 5 s.
    g_cupti->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    stopping_ = true;
    sem_post(&wake_);
    timespec until{};
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    int rc;
    while ((rc = sem_timedwait(&writerExited_, &until)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        thread_.detach();
        warnOnce("writer thread did not stop within 5 s; " + path_ + " may lack its last chunk");
        return;
    }
    thread_.join();
    running_ = false;
    writeClockPair();
    writer_.writeHeader({{"end_realtime_ns", std::to_string(realtimeNs())},
                         {"dropped_records", std::to_string(dropped_.load())},
                         {"pool_exhausted", std::to_string(pool_->exhaustedCount())}});
    writer_.close();
}

} // namespace cnp::collector

// NVTX's injection entry point (NVTX_INJECTION64_PATH names this library): hands over to the
// InitializeInjectionNvtx2 of the libcupti the collector uses (CuptiLibrary, loaded here if NVTX comes
// first), so markers reach the same CUPTI that records them; loading CUPTI by its own path instead could map
// a second copy whose markers go nowhere. May run before InitializeInjection (the first NVTX call can
// precede CUDA's initialisation). Returns 0, and NVTX stays a no-op in that library, when no CUPTI is
// usable (InitializeInjection says why) or it has no NVTX entry point.
extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(const void* (*getExportTable)(uint32_t)) {
    using NvtxInit = int (*)(const void* (*)(uint32_t));
    std::string why;
    const auto* cupti = cnp::collector::CuptiLibrary::get(why);
    if (!cupti)
        return 0;
    auto init = reinterpret_cast<NvtxInit>(dlsym(cupti->handle, "InitializeInjectionNvtx2"));
    return init ? init(getExportTable) : 0;
}
// The entry point the CUDA driver calls when CUDA_INJECTION64_PATH names this library. Returns 1 even when
// the collector could not start: the application must run on.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    try {
        cnp::collector::Collector::instance().start();
    } catch (...) {
    }
    return 1;
}
