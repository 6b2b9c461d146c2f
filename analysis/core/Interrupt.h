#pragma once
// The process-wide interrupt request: the CLI's SIGINT/SIGTERM handler raises it (a lock-free atomic
// store is async-signal-safe); long work polls it between batches and every workspace query polls it
// through its QueryWatchdog, then stops with Cancelled leaving no trace of itself.
#include <atomic>

namespace cnp {

std::atomic<bool>& interruptFlag();
inline bool interruptRequested() {
    return interruptFlag().load(std::memory_order_relaxed);
}

} // namespace cnp
