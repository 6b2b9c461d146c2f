#include "timeline/SpanJobPool.h"

#include <QRunnable>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <atomic>

namespace cnp::wb {

using namespace cnp::timeline;

// Lanes are handed out by `next`; a lane's spans are published by its `done` flag (release / acquire).
struct SpanJobPool::Jobs {
    struct alignas(64) Lane { // one cache line per lane header: no false sharing between threads
        std::vector<DrawSpan> spans;
        std::atomic<bool> done{false};
    };
    TimeAxis axis;
    std::vector<const EventTrack*> tracks;
    std::unique_ptr<Lane[]> lanes;
    std::size_t capacity = 0;
    std::atomic<std::size_t> next{0};

    void work() {
        const std::size_t n = tracks.size();
        for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < n;
             k = next.fetch_add(1, std::memory_order_relaxed)) {
            lanes[k].spans.clear();
            tracks[k]->buildSpans(axis, lanes[k].spans);
            lanes[k].done.store(true, std::memory_order_release);
        }
    }
};

SpanJobPool::SpanJobPool() {
    // Draw lists are built on the GUI thread plus up to 3 helpers (1 on a 2-core machine).
    const int helpers = std::min(QThread::idealThreadCount() - 1, 3);
    if (helpers > 0) {
        pool_ = std::make_unique<QThreadPool>();
        pool_->setMaxThreadCount(helpers);
    }
}

SpanJobPool::~SpanJobPool() = default;

const std::vector<const std::vector<DrawSpan>*>&
SpanJobPool::build(const TimeAxis& axis, const std::vector<const EventTrack*>& tracks,
                   const std::shared_ptr<const void>& keepAlive) {
    if (pool_)
        pool_->clear(); // helpers of earlier frames that never started (they hold their jobs)
    // Reuse last frame's jobs (and their allocations) unless a late helper still holds them.
    if (!jobs_ || jobs_.use_count() > 1)
        jobs_ = std::make_shared<Jobs>();
    else
        std::atomic_thread_fence(std::memory_order_acquire); // after the last helper's release of it
    Jobs& jobs = *jobs_;
    const std::size_t n = tracks.size();
    if (jobs.capacity < n) {
        jobs.lanes = std::make_unique<Jobs::Lane[]>(n);
        jobs.capacity = n;
    }
    jobs.axis = axis;
    jobs.tracks = tracks;
    for (std::size_t k = 0; k < n; ++k)
        jobs.lanes[k].done.store(false, std::memory_order_relaxed);
    jobs.next.store(0, std::memory_order_relaxed);
    // Helpers pay off only when there is work to share: below ~16k events in view (estimated at each
    // lane's average density, O(lanes)) handing lanes out costs about as much as building them all.
    double expected = 0;
    for (const EventTrack* t : tracks)
        if (!t->empty())
            expected +=
                static_cast<double>(t->size()) *
                std::min(1.0, static_cast<double>(axis.span()) /
                                  static_cast<double>(std::max<Ns>(1, t->lastEnd() - t->firstStart())));
    if (pool_ && n >= 2 && expected >= 16384) {
        const int helpers = std::min(pool_->maxThreadCount(), static_cast<int>(n) - 1);
        for (int h = 0; h < helpers; ++h)
            pool_->start(QRunnable::create([held = jobs_, owner = keepAlive]() {
                held->work(); // `owner` keeps the lanes alive until this helper is done
            }));
    }
    jobs.work();
    laneSpans_.assign(n, nullptr);
    if (retaken_.size() < n)
        retaken_.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        if (jobs.lanes[k].done.load(std::memory_order_acquire)) {
            laneSpans_[k] = &jobs.lanes[k].spans;
        } else { // a helper is on it: build it here rather than wait
            retaken_[k].clear();
            tracks[k]->buildSpans(axis, retaken_[k]);
            laneSpans_[k] = &retaken_[k];
        }
    }
    return laneSpans_;
}

} // namespace cnp::wb
