#include "core/Interrupt.h"

namespace cnp {

std::atomic<bool>& interruptFlag() {
    static std::atomic<bool> flag{false};
    static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
    return flag;
}

} // namespace cnp
