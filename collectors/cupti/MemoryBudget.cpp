#include "MemoryBudget.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace cnp::collector {

namespace {

// cgroup v1 reports "no limit" as a page-rounded LLONG_MAX; anything this large is no limit.
constexpr std::uint64_t kNoLimit = std::uint64_t(1) << 60;

// The first 64 KiB of a small kernel file; "" when unreadable.
std::string readSmallFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    std::string out;
    char buf[4096];
    while (out.size() < (64u << 10)) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

// A decimal byte count at the start of `text` (trailing newline allowed); 0 for "max", empty or junk.
std::uint64_t parseBytes(const std::string& text) {
    if (text.empty() || text[0] < '0' || text[0] > '9')
        return 0;
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (errno == ERANGE || (*end != '\0' && *end != '\n') || v >= kNoLimit)
        return 0;
    return v;
}

std::uint64_t readMemAvailable(const std::string& root) {
    const std::string info = readSmallFile(root + "/proc/meminfo");
    const char* key = "MemAvailable:";
    const std::size_t at = info.find(key);
    if (at == std::string::npos)
        return 0;
    errno = 0;
    char* end = nullptr;
    const unsigned long long kib = std::strtoull(info.c_str() + at + std::strlen(key), &end, 10);
    if (errno == ERANGE || kib >= (kNoLimit >> 10))
        return 0;
    return static_cast<std::uint64_t>(kib) << 10;
}

struct CgroupLayout {
    std::string mount;               // folder of the hierarchy, relative to root
    std::string path;                // the process's cgroup inside it, "" = the hierarchy's root
    const char* limitFile = nullptr; // memory.max or memory.limit_in_bytes
    const char* usageFile = nullptr;
};

// From /proc/self/cgroup: the v1 memory controller's line ("4:memory:/job") when present, else the
// v2 line ("0::/job"). Returns false when neither is there.
bool findCgroup(const std::string& root, CgroupLayout& out) {
    const std::string text = readSmallFile(root + "/proc/self/cgroup");
    bool found = false;
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(begin, end - begin);
        begin = end + 1;
        const std::size_t c1 = line.find(':'), c2 = c1 == std::string::npos ? c1 : line.find(':', c1 + 1);
        if (c2 == std::string::npos)
            continue;
        const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
        const std::string path = line.substr(c2 + 1);
        const bool v1Memory = ("," + controllers + ",").find(",memory,") != std::string::npos;
        if (v1Memory) {
            out = {"/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes"};
            return true; // the memory controller's own hierarchy wins over a v2 line (hybrid setups)
        }
        if (controllers.empty() && line.compare(0, c1, "0") == 0) {
            out = {"/sys/fs/cgroup", path, "memory.max", "memory.current"};
            found = true;
        }
    }
    return found;
}

// Drops the last component of a cgroup path: "/a/b" -> "/a", "/a" -> "".
std::string parentOf(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

} // namespace

MemoryLimits readMemoryLimits(const std::string& root) {
    MemoryLimits m;
    m.memAvailable = readMemAvailable(root);
    CgroupLayout cg;
    if (!findCgroup(root, cg))
        return m;
    // Every ancestor's limit applies. In a cgroup namespace (containers) /proc/self/cgroup says "/"
    // and the hierarchy's root is the container's own cgroup, so the walk always ends at the mount.
    std::string path = cg.path == "/" ? std::string() : cg.path;
    bool leaf = true;
    for (;;) {
        const std::string dir = cg.mount + path;
        const std::uint64_t limit = parseBytes(readSmallFile(root + dir + "/" + cg.limitFile));
        if (limit > 0 && (m.cgroupLimit == 0 || limit < m.cgroupLimit)) {
            m.cgroupLimit = limit;
            m.cgroupFile = dir + "/" + cg.limitFile;
        }
        if (leaf) {
            const std::string usage = readSmallFile(root + dir + "/" + cg.usageFile);
            if (!usage.empty()) {
                m.cgroupUsage = parseBytes(usage);
                leaf = false;
            }
        }
        if (path.empty())
            break;
        path = parentOf(path);
    }
    return m;
}

std::optional<std::uint64_t> poolBudget(const MemoryLimits& m) {
    std::optional<std::uint64_t> headroom;
    if (m.memAvailable > 0)
        headroom = m.memAvailable;
    if (m.cgroupLimit > 0) {
        const std::uint64_t left = m.cgroupLimit > m.cgroupUsage ? m.cgroupLimit - m.cgroupUsage : 0;
        headroom = headroom && *headroom < left ? *headroom : left;
    }
    if (!headroom)
        return std::nullopt;
    return *headroom / kHeadroomShare;
}

std::string byteText(std::uint64_t bytes) {
    char s[48];
    if (bytes >= (std::uint64_t(1) << 30))
        std::snprintf(s, sizeof s, "%.2f GiB", static_cast<double>(bytes) / double(1u << 30));
    else if (bytes >= (1u << 20))
        std::snprintf(s, sizeof s, "%.1f MiB", static_cast<double>(bytes) / double(1u << 20));
    else
        std::snprintf(s, sizeof s, "%llu KiB", static_cast<unsigned long long>(bytes >> 10));
    return s;
}

std::string describeLimits(const MemoryLimits& m) {
    std::string out;
    if (m.memAvailable > 0)
        out = "MemAvailable " + byteText(m.memAvailable);
    if (m.cgroupLimit > 0)
        out += (out.empty() ? "cgroup " : ", cgroup ") + m.cgroupFile + " " + byteText(m.cgroupLimit) +
               " with " + byteText(m.cgroupUsage) + " in use";
    return out.empty() ? std::string("no memory limit known") : out;
}

} // namespace cnp::collector
