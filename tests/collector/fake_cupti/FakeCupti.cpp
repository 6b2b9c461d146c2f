// A stand-in for libcupti.so.13 (same soname, same C entry points the collector calls) so the real
// libcnp-collector.so can be exercised on machines without a GPU: the test harness loads this first with
// RTLD_GLOBAL, then the collector, which finds this copy already in the process
// (collectors/cupti/CuptiLibrary), or the collector finds it itself through CNP_CUPTI_PATH or the loader's
// path. Records are produced on demand by fakeCuptiEmit() (one runtime API call + one kernel per launch, plus
// an NVTX "step N" range around each batch) into a buffer obtained from the collector's bufferRequested
// callback; cuptiActivityFlushAll() hands the pending buffer back through bufferCompleted.
// Like libcupti it exports InitializeInjectionNvtx2: NVTX ranges pushed through the NVTX API (nvtxRangePushA
// / nvtxRangePop) become marker records once the collector has registered its buffers. Environment:
// FAKE_CUPTI_SUBSCRIBE_FAIL=1 (cuptiSubscribe fails as if another profiler held CUPTI), FAKE_CUPTI_VERSION
// (default 130001), FAKE_CUPTI_DROPPED (dropped count reported with each buffer), FAKE_CUPTI_REPORT (a file
// that gets a line "subscribe" / "enable" at each cuptiSubscribe / cuptiActivityEnable).
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <vector>

namespace {

std::mutex g_mutex;
CUpti_BuffersCallbackRequestFunc g_request = nullptr;
CUpti_BuffersCallbackCompleteFunc g_complete = nullptr;
bool g_kernelsEnabled = false;
std::uint8_t* g_buffer = nullptr;
std::size_t g_size = 0, g_used = 0;
std::uint32_t g_correlation = 0, g_markerId = 0;
int g_step = 0;

std::uint64_t nowNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::size_t recordSize(CUpti_ActivityKind k) {
    switch (k) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_MARKER:
        return sizeof(CUpti_ActivityMarker2);
    default:
        return 8;
    }
}

// Appends a record to the pending buffer (asks the collector for one when needed). Caller holds g_mutex.
template <class T> bool put(const T& r) {
    if (!g_buffer) {
        std::size_t maxRecords = 0;
        g_request(&g_buffer, &g_size, &maxRecords);
        g_used = 0;
        if (!g_buffer)
            return false;
    }
    const std::size_t n = (sizeof(T) + 7) / 8 * 8;
    if (g_used + n > g_size)
        return false;
    std::memcpy(g_buffer + g_used, &r, sizeof(T));
    g_used += n;
    return true;
}

void completePending() {
    if (!g_buffer)
        return;
    auto* b = g_buffer;
    const std::size_t used = g_used, size = g_size;
    g_buffer = nullptr;
    g_used = 0;
    g_complete(nullptr, 0, b, size, used);
}

void report(const char* what) {
    const char* path = std::getenv("FAKE_CUPTI_REPORT");
    if (FILE* f = path ? std::fopen(path, "a") : nullptr) {
        std::fprintf(f, "%s\n", what);
        std::fclose(f);
    }
}

const char* kNames[] = {"fake_gemm_kernel", "fake_elementwise_kernel", "fake_reduce_kernel"};

// A marker start record named `name` (which must outlive the buffer); returns its id. Caller holds g_mutex.
std::uint32_t putMarkerStart(const char* name) {
    const std::uint32_t mid = ++g_markerId;
    CUpti_ActivityMarker2 m{};
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
    m.timestamp = nowNs();
    m.id = mid;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = 100;
    m.objectId.pt.threadId = 101;
    m.name = name;
    put(m);
    return mid;
}

void putMarkerEnd(std::uint32_t mid) {
    CUpti_ActivityMarker2 e{};
    e.kind = CUPTI_ACTIVITY_KIND_MARKER;
    e.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
    e.timestamp = nowNs() + 20000;
    e.id = mid;
    e.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    e.objectId.pt.processId = 100;
    e.objectId.pt.threadId = 101;
    put(e);
}

// `launches` runtime API calls, each launching one kernel. Caller holds g_mutex.
void putLaunches(int launches) {
    for (int i = 0; i < launches && g_kernelsEnabled; ++i) {
        const std::uint64_t t = nowNs();
        CUpti_ActivityAPI a{};
        a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
        a.cbid = 211; // cudaLaunchKernel_v7000
        a.start = t;
        a.end = t + 1000;
        a.processId = 100;
        a.threadId = 101;
        a.correlationId = ++g_correlation;
        put(a);
        CUpti_ActivityKernel10 k{};
        k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k.start = t + 5000;
        k.end = t + 9000;
        k.correlationId = g_correlation;
        k.streamId = 7;
        k.gridX = k.gridY = k.gridZ = 1;
        k.blockX = 128;
        k.blockY = k.blockZ = 1;
        k.name = kNames[i % 3];
        put(k);
    }
}

// NVTX push/pop as CUPTI would see them; ranges before the collector registered its buffers are lost (as
// with CUPTI before its activity kinds are enabled). Names are copied: NVTX's caller owns its string.
thread_local std::vector<std::uint32_t> t_openMarkers;

int NVTX_API nvtxPushHandler(const char* message) {
    std::lock_guard lock(g_mutex);
    if (!g_request)
        return -1;
    t_openMarkers.push_back(putMarkerStart(strdup(message ? message : "")));
    return static_cast<int>(t_openMarkers.size()) - 1;
}

int NVTX_API nvtxPopHandler() {
    std::lock_guard lock(g_mutex);
    if (t_openMarkers.empty())
        return -1;
    putMarkerEnd(t_openMarkers.back());
    t_openMarkers.pop_back();
    return static_cast<int>(t_openMarkers.size());
}

} // namespace

extern "C" {

// Test hook: `launches` kernels (one runtime API call each), outside any marker.
__attribute__((visibility("default"))) void fakeCuptiEmitKernels(int launches) {
    std::lock_guard lock(g_mutex);
    if (g_request)
        putLaunches(launches);
}

// Test hook: `launches` kernels inside an NVTX range "step <n>" (n counts up from 0).
__attribute__((visibility("default"))) void fakeCuptiEmit(int launches) {
    std::lock_guard lock(g_mutex);
    if (!g_request)
        return;
    static char names[64][16];
    std::snprintf(names[g_step % 64], sizeof names[0], "step %d", g_step);
    const std::uint32_t mid = putMarkerStart(names[g_step % 64]);
    ++g_step;
    putLaunches(launches);
    putMarkerEnd(mid);
}

// NVTX injection: NVTX calls this with its export table at the process's first NVTX call.
int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) ||
        size <= NVTX_CBID_CORE_RangePop)
        return 0;
    *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(&nvtxPushHandler);
    *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(&nvtxPopHandler);
    return 1;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
    const char* v = std::getenv("FAKE_CUPTI_VERSION");
    *version = v ? static_cast<uint32_t>(std::strtoul(v, nullptr, 10)) : 130001u;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
    *timestamp = nowNs();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
    *str = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
               ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"
               : "fake CUPTI error";
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char** name) {
    *name = (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == 211) ? "cudaLaunchKernel_v7000" : nullptr;
    return *name ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc, void*) {
    report("subscribe");
    const char* fail = std::getenv("FAKE_CUPTI_SUBSCRIBE_FAIL");
    if (fail && std::strcmp(fail, "1") == 0)
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    static int handle;
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&handle);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle) {
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain) {
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                    CUpti_BuffersCallbackCompleteFunc complete) {
    std::lock_guard lock(g_mutex);
    g_request = request;
    g_complete = complete;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
    report("enable");
    if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
        g_kernelsEnabled = true;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
    if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
        g_kernelsEnabled = false;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableDriverApi(CUpti_CallbackId, uint8_t) {
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityEnableRuntimeApi(CUpti_CallbackId, uint8_t) {
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t) {
    std::lock_guard lock(g_mutex);
    completePending();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
    const char* d = std::getenv("FAKE_CUPTI_DROPPED");
    *dropped = d ? std::strtoul(d, nullptr, 10) : 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
    std::size_t at = 0;
    if (*record) {
        auto* cur = reinterpret_cast<std::uint8_t*>(*record);
        at = static_cast<std::size_t>(cur - buffer) + (recordSize((*record)->kind) + 7) / 8 * 8;
    }
    if (at >= valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<CUpti_Activity*>(buffer + at);
    return CUPTI_SUCCESS;
}

} // extern "C"
