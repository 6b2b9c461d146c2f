#pragma once
// The CUPTI the collector uses, found at run time (the collector names no libcupti as DT_NEEDED, so it loads
// whatever CUDA the image has and then says whether it can trace with it).
//
// Search, first hit wins, one CUPTI per process: a libcupti already in the process (libcupti.so.13,
// libcupti.so.12, libcupti.so, RTLD_NOLOAD: PyTorch's own copy, so markers and records meet in one CUPTI);
// then CNP_CUPTI_PATH; then those names through the loader's path; then $CUDA_HOME/extras/CUPTI/lib64/
// and $CUDA_HOME/lib64/ (CUDA_HOME defaults to /usr/local/cuda).
// The library found must export every function the collector calls, and its cuptiGetVersion must be one
// whose activity records have the layouts this collector was compiled with (acceptsVersion); otherwise
// it is refused with a reason and the collector stays inert.
#include <cupti.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cnp::collector {

// Every CUPTI entry point the collector calls (X-macro: one function pointer member each).
#define CNP_CUPTI_FUNCTIONS(X)                                                                               \
    X(cuptiGetVersion)                                                                                       \
    X(cuptiGetResultString)                                                                                  \
    X(cuptiGetCallbackName)                                                                                  \
    X(cuptiGetTimestamp)                                                                                     \
    X(cuptiSubscribe)                                                                                        \
    X(cuptiUnsubscribe)                                                                                      \
    X(cuptiEnableDomain)                                                                                     \
    X(cuptiActivityRegisterCallbacks)                                                                        \
    X(cuptiActivityEnable)                                                                                   \
    X(cuptiActivityDisable)                                                                                  \
    X(cuptiActivityEnableRuntimeApi)                                                                         \
    X(cuptiActivityEnableDriverApi)                                                                          \
    X(cuptiActivityFlushAll)                                                                                 \
    X(cuptiActivityGetNumDroppedRecords)                                                                     \
    X(cuptiActivityGetNextRecord)

struct CuptiLibrary {
#define CNP_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
    CNP_CUPTI_FUNCTIONS(CNP_CUPTI_MEMBER)
#undef CNP_CUPTI_MEMBER

    void* handle = nullptr;
    std::string path;          // the file the loader mapped (dladdr), for messages and NVTX's injection
    std::uint32_t version = 0; // cuptiGetVersion

    // The process's CUPTI, loaded and checked on the first call (thread-safe; later calls return the same).
    // nullptr when none is usable; `why` then holds the reason, e.g. "no libcupti found (...)".
    static const CuptiLibrary* get(std::string& why);

    // True when CUPTI API version `v` has the record layouts this collector reads (those of CUPTI_API_VERSION
    // it was compiled with: CUDA 13.x, v >= 130000 with the same major); otherwise false and `why` says so.
    static bool acceptsVersion(std::uint32_t v, std::string& why);

    // The names and paths tried after an already-loaded copy, in order: CNP_CUPTI_PATH (when set and
    // non-empty), the sonames, then under `cudaHome` (null or empty: /usr/local/cuda)
    // extras/CUPTI/lib64/<soname> and lib64/<soname>.
    static std::vector<std::string> candidates(const char* explicitPath, const char* cudaHome);
};

} // namespace cnp::collector
