#pragma once
// Interrupts SQLite work on one connection (sqlite3_progress_handler) when the user asked to stop
// (interruptRequested(), raised by Ctrl-C) or when one sqlite3_step call made through Statement or
// execSql has computed for longer than the budget without returning: a hostile or corrupt workspace can
// then slow a command down by at most the budget per call, never hang it. The interrupted call fails with
// SQLITE_INTERRUPT, which Statement turns into Cancelled (user) or a SqliteError naming the file (budget).
// The handler runs every kOpsPerCheck virtual-machine instructions (well under a millisecond of work), so
// an interrupt lands promptly and the clock is read too rarely to cost anything measurable.
#include <sqlite3.h>

#include <chrono>
#include <cstdint>

namespace cnp {

class QueryWatchdog {
public:
    static constexpr int kOpsPerCheck = 10000;

    // budget <= 0: no time limit (the interrupt flag is still honoured).
    QueryWatchdog(sqlite3* db, std::chrono::milliseconds budget);
    ~QueryWatchdog(); // removes the handler
    QueryWatchdog(const QueryWatchdog&) = delete;
    QueryWatchdog& operator=(const QueryWatchdog&) = delete;

    void setBudget(std::chrono::milliseconds budget) { budget_ = budget; }
    std::chrono::milliseconds budget() const { return budget_; }

    // No time limit for the scope (the interrupt flag still works): for this program's own bulk
    // statements (a schema migration, removing a run), which may rightly run for minutes on a large
    // workspace.
    class Unbounded {
    public:
        explicit Unbounded(QueryWatchdog& w) : watchdog_(w), saved_(w.budget()) { w.setBudget({}); }
        ~Unbounded() { watchdog_.setBudget(saved_); }
        Unbounded(const Unbounded&) = delete;
        Unbounded& operator=(const Unbounded&) = delete;

    private:
        QueryWatchdog& watchdog_;
        std::chrono::milliseconds saved_;
    };

private:
    static int onProgress(void* self);
    bool shouldInterrupt();

    sqlite3* db_;
    std::chrono::milliseconds budget_;
    // The step call the handler last saw (stepCallsOnThisThread()) and when it first saw it: the handler
    // is only called while a step runs, so a changed count means a new call started.
    std::uint64_t seenStepCall_ = ~std::uint64_t{0};
    std::chrono::steady_clock::time_point callSeenAt_;
};

} // namespace cnp
