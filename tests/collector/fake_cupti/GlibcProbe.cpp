// A library that needs a newer glibc than the collector's floor on purpose, for tst_glibcfloor to show that
// its check fails: stat (GLIBC_2.33 since stat became a real symbol) and arc4random (GLIBC_2.36), as a
// build on Debian 12 binds them when nothing pins them down.
#include <cstdint>
#include <cstdlib>
#include <sys/stat.h>

extern "C" __attribute__((visibility("default"))) long cnpGlibcProbe(const char* path) {
    struct stat st {};
    if (stat(path, &st) != 0)
        return -1;
    return static_cast<long>(st.st_size) + static_cast<long>(arc4random() % 2u);
}
