#include "core/UtcTime.h"

#include <chrono>
#include <ctime>

namespace cnp {

std::string utcNow(const char* format) {
    const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    const std::size_t n = std::strftime(buf, sizeof buf, format, &tm);
    return std::string(buf, n);
}

std::string utcNowIso8601() {
    return utcNow("%Y-%m-%dT%H:%M:%SZ");
}

} // namespace cnp
