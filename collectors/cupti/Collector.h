#pragma once
// The collector inside a traced process: one instance per process, started by InitializeInjection.
//
// Threads: CUPTI's threads call onBufferRequested/onBufferCompleted (pool only, no allocation, no I/O);
// one writer thread owns the CnptWriter: it translates completed buffers into chunks, asks CUPTI for a
// flush every CNP_FLUSH_MS (so a killed process loses at most that), records clock pairs, and opens or
// closes the capture window. atexit, SIGTERM and SIGINT force a flush; signal handlers chain to the ones
// they replaced. A forked child disables itself: it never writes or flushes its parent's file.
// Any failure to use CUPTI prints one warning line on stderr and leaves the process untraced.
#include "BufferPool.h"
#include "CnptWriter.h"
#include "CollectorConfig.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <semaphore.h>
#include <string>
#include <thread>

namespace cnp::collector {

class Collector {
public:
    static Collector& instance();

    // Never throws. False when the process runs untraced (warning already printed).
    bool start();
    // Forced flush, drain, final clock pair, End chunk, close. Bounded in time; idempotent.
    void finish();

private:
    Collector() = default;

    void warnOnce(const std::string& message);
    // start()'s steps, in order; each false return means "run untraced" with the reason already on stderr.
    bool configure();           // config from the environment; false when disabled or the pool does not fit
    bool subscribeToCupti();    // CUPTI new enough and free to subscribe; sets subscriber_
    bool openOutput();          // the output file and the buffer pool, CUPTI's buffer callbacks registered
    void beginCapture();        // the activities the capture window starts with, NVTX injection fallback
    void installProcessHooks(); // fork, exit and signal handlers that flush the trace
    bool enableActivities(bool heavy);
    void setHeavyEnabled(bool on);
    void writerLoop();
    void drainCompleted();
    void writeClockPair();
    void writeHeader();
    void requestFlushFromSignal(bool forced);

    friend struct CollectorCallbacks; // CUPTI, atexit, atfork and signal entry points (Collector.cpp)

    CollectorConfig config_;
    std::unique_ptr<BufferPool> pool_;
    cnpt::CnptWriter writer_;
    std::thread thread_;
    sem_t wake_{}, flushDone_{}, writerExited_{};
    std::atomic<bool> running_{false}, stopping_{false}, heavyEnabled_{false};
    std::atomic<int> signalFlush_{0}; // 0 none, 1 flush, 2 forced flush (the process is about to die)
    std::atomic<bool> warned_{false}, finished_{false};
    std::atomic<long> ownerPid_{0};
    std::atomic<std::uint64_t> dropped_{0};
    std::mutex enableMutex_;
    std::uint64_t startRealtimeNs_ = 0;
    std::uint32_t cuptiVersion_ = 0;
    void* subscriber_ = nullptr;
    std::string path_;
};

} // namespace cnp::collector
