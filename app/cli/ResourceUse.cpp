#include "ResourceUse.h"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace cnp::cli {

long long bytesReadSoFar() {
    std::ifstream io("/proc/self/io");
    std::string key;
    long long value = 0;
    while (io >> key >> value)
        if (key == "rchar:")
            return value;
    return -1;
}

void printResourceUse() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    std::fprintf(stderr, "  %-42s %8.3f s\n", "CPU (process)", cpu);
    std::fprintf(stderr, "  %-42s %8.1f MB\n", "peak RSS (process)",
                 static_cast<double>(ru.ru_maxrss) / 1024.0);
}

} // namespace cnp::cli
