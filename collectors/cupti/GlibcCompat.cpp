// The collector's glibc floor (2.28; docs/collector.md "glibc floor"). The library is built on a newer glibc
// (Debian 12: 2.36), whose headers and libc.so bind every reference to the newest version of a symbol:
// pthread_*, sem_* and dl* moved into libc at 2.34 and got GLIBC_2.34 versions, stat/fstat became real
// symbols at 2.33, and the static libstdc++/libgcc linked into the collector use __libc_single_threaded
// (2.32), arc4random (2.36, random_device) and _dl_find_object (2.35, the exception unwinder).
//
// The link (collectors/cupti/CMakeLists.txt, CNP_COLLECTOR_GLIBC_WRAPS) passes -Wl,--wrap=SYMBOL for each of
// them, so every reference, ours or the static runtime's, reaches the __wrap_SYMBOL below instead; each one
// either calls the symbol's x86_64 baseline version (GLIBC_2.2.5, bound with .symver; since 2.34 libc.so.6
// still exports it as a compatibility symbol, before 2.34 libpthread.so.0 / libdl.so.2 define it, which the
// collector therefore names as DT_NEEDED) or provides the function from older pieces. Invariant, checked by
// tests/collector/tst_glibcfloor: the built library requires no GLIBC_x.y above 2.28.
//
// Every definition here is hidden (the target's default visibility): nothing is exported to the process.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

// Declares cnp_glibc_NAME bound to NAME@GLIBC_2.2.5 and defines __wrap_NAME forwarding to it.
// NOLINTBEGIN(cppcoreguidelines-macro-usage,bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
#define CNP_BASELINE(ret, name, params, args)                                                                \
    extern "C" ret cnp_glibc_##name params;                                                                  \
    __asm__(".symver cnp_glibc_" #name "," #name "@GLIBC_2.2.5");                                            \
    extern "C" ret __wrap_##name params {                                                                    \
        return cnp_glibc_##name args;                                                                        \
    }

// libdl before 2.34.
CNP_BASELINE(void*, dlopen, (const char* file, int mode), (file, mode))
CNP_BASELINE(void*, dlsym, (void* handle, const char* name), (handle, name))
CNP_BASELINE(int, dlclose, (void* handle), (handle))
CNP_BASELINE(int, dladdr, (const void* address, Dl_info* info), (address, info))
CNP_BASELINE(char*, dlerror, (), ())
// libpthread before 2.34.
CNP_BASELINE(int, pthread_create,
             (pthread_t * thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg),
             (thread, attr, start, arg))
CNP_BASELINE(int, pthread_join, (pthread_t thread, void** result), (thread, result))
CNP_BASELINE(int, pthread_detach, (pthread_t thread), (thread))
CNP_BASELINE(int, pthread_once, (pthread_once_t * once, void (*init)()), (once, init))
CNP_BASELINE(int, __pthread_key_create, (pthread_key_t * key, void (*destructor)(void*)), (key, destructor))
CNP_BASELINE(int, sem_init, (sem_t * sem, int shared, unsigned value), (sem, shared, value))
CNP_BASELINE(int, sem_post, (sem_t * sem), (sem))
CNP_BASELINE(int, sem_timedwait, (sem_t * sem, const timespec* until), (sem, until))

// stat and fstat before 2.33 were inline wrappers around __xstat/__fxstat with a layout version; on x86_64
// that version is 1 (_STAT_VER_LINUX) and the struct is the one <sys/stat.h> declares today.
extern "C" int cnp_glibc_xstat(int version, const char* path, struct stat* buf);
__asm__(".symver cnp_glibc_xstat,__xstat@GLIBC_2.2.5");
extern "C" int cnp_glibc_fxstat(int version, int fd, struct stat* buf);
__asm__(".symver cnp_glibc_fxstat,__fxstat@GLIBC_2.2.5");
constexpr int kStatVersion = 1;

extern "C" int __wrap_stat(const char* path, struct stat* buf) {
    return cnp_glibc_xstat(kStatVersion, path, buf);
}
extern "C" int __wrap_fstat(int fd, struct stat* buf) {
    return cnp_glibc_fxstat(kStatVersion, fd, buf);
}

// libstdc++ skips atomic reference counting while this is non-zero; 0 ("perhaps several threads") is always
// correct, only slower for a single-threaded process, and the collector runs a writer thread anyway.
extern "C" {
char __wrap___libc_single_threaded = 0;
}

// random_device's source (linked with libstdc++'s string instantiations; the collector never draws from it):
// getrandom (2.25), as glibc's own arc4random, which also ends the process when no entropy can be had.
extern "C" std::uint32_t __wrap_arc4random() {
    std::uint32_t value = 0;
    auto* out = reinterpret_cast<unsigned char*>(&value);
    std::size_t have = 0;
    while (have < sizeof value) {
        const ssize_t n = getrandom(out + have, sizeof value - have, 0);
        if (n > 0)
            have += static_cast<std::size_t>(n);
        else if (errno != EINTR)
            std::abort();
    }
    return value;
}

// libgcc's unwinder asks _dl_find_object (2.35) for the object holding a code address and uses only its
// dlfo_eh_frame (x86_64 has no eh dbase); before 2.35 it walked dl_iterate_phdr (2.2.5), as this does.
// O(loaded objects x program headers) per frame; only exceptions unwind, and only on error paths.
namespace {
struct FindObject {
    std::uintptr_t pc = 0;
    dl_find_object* out = nullptr;
};

// The loader states addresses as integers (dlpi_addr + p_vaddr); dl_find_object wants pointers.
void* asPointer(std::uintptr_t address) {
    return reinterpret_cast<void*>(address); // NOLINT(performance-no-int-to-ptr)
}

int findObjectIn(dl_phdr_info* info, size_t /*size*/, void* data) {
    auto* find = static_cast<FindObject*>(data);
    std::uintptr_t lowest = UINTPTR_MAX, highest = 0;
    bool holds = false;
    void* ehFrame = nullptr;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_GNU_EH_FRAME)
            ehFrame = asPointer(start);
        if (ph.p_type != PT_LOAD)
            continue;
        lowest = start < lowest ? start : lowest;
        highest = start + ph.p_memsz > highest ? start + ph.p_memsz : highest;
        holds = holds || (find->pc >= start && find->pc < start + ph.p_memsz);
    }
    if (!holds)
        return 0;
    *find->out = dl_find_object{};
    find->out->dlfo_map_start = asPointer(lowest);
    find->out->dlfo_map_end = asPointer(highest);
    find->out->dlfo_eh_frame = ehFrame;
    return 1;
}
} // namespace

extern "C" int __wrap__dl_find_object(void* pc, dl_find_object* result) {
    FindObject find{reinterpret_cast<std::uintptr_t>(pc), result};
    return dl_iterate_phdr(&findObjectIn, &find) == 1 ? 0 : -1;
}
// NOLINTEND(cppcoreguidelines-macro-usage,bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
