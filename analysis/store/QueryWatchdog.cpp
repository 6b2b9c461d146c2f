#include "store/QueryWatchdog.h"

#include "core/Interrupt.h"
#include "store/Sqlite.h"

namespace cnp {

QueryWatchdog::QueryWatchdog(sqlite3* db, std::chrono::milliseconds budget) : db_(db), budget_(budget) {
    sqlite3_progress_handler(db_, kOpsPerCheck, &QueryWatchdog::onProgress, this);
}

QueryWatchdog::~QueryWatchdog() {
    sqlite3_progress_handler(db_, 0, nullptr, nullptr);
}

int QueryWatchdog::onProgress(void* self) {
    return static_cast<QueryWatchdog*>(self)->shouldInterrupt() ? 1 : 0;
}

bool QueryWatchdog::shouldInterrupt() {
    if (interruptRequested())
        return true;
    if (budget_.count() <= 0)
        return false;
    const auto now = std::chrono::steady_clock::now();
    const std::uint64_t call = stepCallsOnThisThread();
    if (call != seenStepCall_) {
        seenStepCall_ = call;
        callSeenAt_ = now;
        return false;
    }
    return now - callSeenAt_ > budget_;
}

} // namespace cnp
