#include "CuptiLibrary.h"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>

namespace cnp::collector {

namespace {

constexpr const char* kSonames[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
constexpr const char* kDefaultCudaHome = "/usr/local/cuda"; // CUDA_HOME when unset
// The records the collector reads are those of the CUDA 13 headers it is compiled with (Kernel10, Memcpy6,
// MemcpyPtoP4, Memset4, Synchronization2, Memory4, Overhead3, Marker2, MarkerData2, Device5, Context3,
// API); CUPTI writes its own newest versions, which change between major releases (CUDA 12.x: Kernel9).
constexpr std::uint32_t kBuiltMajor = CUPTI_API_VERSION / 10000;
constexpr const char* kLayouts = "CUpti_ActivityKernel10, Memcpy6, Memset4, Memory4, Marker2, Device5";

// What a CUPTI API version is called: 130001 -> "13.0 (130001)"; before 13.0 the API version was a counter,
// e.g. 26 -> "API version 26 (CUDA 12.8)" (cupti_version.h lists them).
std::string describe(std::uint32_t v) {
    if (v >= 10000)
        return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + " (" + std::to_string(v) +
               ")";
    static constexpr struct {
        std::uint32_t api;
        const char* cuda;
    } kCuda12[] = {{19, "12.0"}, {20, "12.2"}, {21, "12.3"}, {22, "12.4"},         {23, "12.5"},
                   {24, "12.6"}, {26, "12.8"}, {27, "12.9"}, {28, "12.9 Update 1"}};
    for (const auto& k : kCuda12)
        if (k.api == v)
            return "API version " + std::to_string(v) + " (CUDA " + k.cuda + ")";
    return "API version " + std::to_string(v) + " (CUDA " + (v < 19 ? "11.x or older" : "12.x") + ")";
}

// The file holding `symbol` (what the loader mapped for a soname), or `fallback`.
std::string loadedPath(void* symbol, const std::string& fallback) {
    Dl_info info{};
    if (symbol && dladdr(symbol, &info) && info.dli_fname && *info.dli_fname)
        return info.dli_fname;
    return fallback;
}

// Resolves every function; false with the first missing one named.
bool resolve(CuptiLibrary& lib, std::string& why) {
#define CNP_CUPTI_RESOLVE(name)                                                                              \
    lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(lib.handle, #name));                               \
    if (!lib.name) {                                                                                         \
        why = lib.path + " lacks " #name;                                                                    \
        return false;                                                                                        \
    }
    CNP_CUPTI_FUNCTIONS(CNP_CUPTI_RESOLVE)
#undef CNP_CUPTI_RESOLVE
    return true;
}

// The first library found (see the header for the order); nullptr handle and `why` when none loads.
void* open(std::string& name, std::string& why) {
    for (const char* soname : kSonames)
        if (void* h = dlopen(soname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) {
            name = soname;
            return h;
        }
    const char* explicitPath = std::getenv("CNP_CUPTI_PATH");
    const char* cudaHome = std::getenv("CUDA_HOME");
    std::string explicitError;
    for (const auto& candidate : CuptiLibrary::candidates(explicitPath, cudaHome)) {
        // RTLD_GLOBAL: NVTX's injection (InitializeInjectionNvtx2) and CUDA find this same copy.
        if (void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            name = candidate;
            return h;
        }
        if (explicitPath && *explicitPath && candidate == explicitPath) {
            const char* e = dlerror();
            explicitError =
                std::string("CNP_CUPTI_PATH '") + explicitPath + "': " + (e ? e : "cannot load") + "; ";
        }
    }
    const std::string home = cudaHome && *cudaHome ? cudaHome : kDefaultCudaHome;
    why = "no libcupti found (" + explicitError +
          "libcupti.so.13, .so.12, .so neither in the loader's path nor in " + home +
          "/extras/CUPTI/lib64 or " + home + "/lib64)";
    return nullptr;
}

// The checked library, or nullptr with `why`. A refused library stays mapped (it may be the process's own
// copy) but nothing of it is called again.
CuptiLibrary* loadOnce(std::string& why) {
    auto lib = std::make_unique<CuptiLibrary>();
    std::string name;
    lib->handle = open(name, why);
    if (!lib->handle)
        return nullptr;
    lib->path = loadedPath(dlsym(lib->handle, "cuptiGetVersion"), name);
    if (!resolve(*lib, why))
        return nullptr;
    if (lib->cuptiGetVersion(&lib->version) != CUPTI_SUCCESS) {
        why = "CUPTI at " + lib->path + " cannot tell its version";
        return nullptr;
    }
    std::string refused;
    if (!CuptiLibrary::acceptsVersion(lib->version, refused)) {
        why = "CUPTI at " + lib->path + " is " + refused;
        return nullptr;
    }
    return lib.release(); // never freed: CUPTI calls into the process until it exits
}

} // namespace

bool CuptiLibrary::acceptsVersion(std::uint32_t v, std::string& why) {
    if (v / 10000 == kBuiltMajor) // 13.0 and its updates; records change with the major release
        return true;
    why = describe(v) + "; its activity records are not the CUDA " + std::to_string(kBuiltMajor) +
          ".x layouts this collector reads (" + kLayouts + ")";
    return false;
}

std::vector<std::string> CuptiLibrary::candidates(const char* explicitPath, const char* cudaHome) {
    std::vector<std::string> out;
    if (explicitPath && *explicitPath)
        out.emplace_back(explicitPath);
    for (const char* soname : kSonames)
        out.emplace_back(soname);
    const std::string home = cudaHome && *cudaHome ? cudaHome : kDefaultCudaHome;
    for (const char* dir : {"/extras/CUPTI/lib64/", "/lib64/"})
        for (const char* soname : kSonames)
            out.push_back(home + dir + soname);
    return out;
}

const CuptiLibrary* CuptiLibrary::get(std::string& why) {
    // Thread-safe static initialisation: NVTX's injection and InitializeInjection may race.
    static std::string reason;
    static const CuptiLibrary* const lib = loadOnce(reason);
    why = reason;
    return lib;
}

} // namespace cnp::collector
