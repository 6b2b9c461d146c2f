#pragma once
// How much memory the collector's buffer pool may take without endangering the traced job: the
// tightest cgroup memory limit on the process's path to the cgroup root (v2 memory.max, v1
// memory.limit_in_bytes) minus the cgroup's current usage, and the kernel's MemAvailable. The pool may
// use a quarter of the smaller of the two (kHeadroomShare); the rest stays the job's.
// Plain C++ on libc file I/O (open/read), no iostreams: it runs inside the traced process. Every path
// is `root` + an absolute path ("" on a real system; a fake tree in tests). Unreadable files mean "no limit
// known" from that source, never an error.
#include <cstdint>
#include <optional>
#include <string>

namespace cnp::collector {

struct MemoryLimits {
    std::uint64_t memAvailable = 0; // bytes, /proc/meminfo MemAvailable; 0 = unknown
    std::uint64_t cgroupLimit = 0;  // bytes, tightest limit on the way to the root; 0 = none
    std::uint64_t cgroupUsage = 0;  // bytes in use by the process's own cgroup (with a limit)
    std::string cgroupFile;         // the file that set cgroupLimit, relative to root
};

// One quarter of the headroom goes to the pool.
inline constexpr std::uint64_t kHeadroomShare = 4;

MemoryLimits readMemoryLimits(const std::string& root);

// Bytes the pool may take; nullopt when nothing bounds it (no cgroup limit and no MemAvailable).
std::optional<std::uint64_t> poolBudget(const MemoryLimits& limits);

// "MemAvailable 10.0 GiB, cgroup /sys/fs/cgroup/job/memory.max 1.50 GiB with 1.00 GiB in use":
// the sources of the budget, for the warning line.
std::string describeLimits(const MemoryLimits& limits);

// 1536 MiB -> "1.50 GiB"; below 1 MiB in KiB.
std::string byteText(std::uint64_t bytes);

} // namespace cnp::collector
