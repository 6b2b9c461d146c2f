#include "ingest/ShardWriters.h"

#include "core/InputError.h"

namespace cnp {

ShardWriters::ShardWriters(Workspace& study, RunId runId, const std::string& runName,
                           std::function<void(std::uint64_t)> stored)
    : stored_(std::move(stored)), runName_(std::to_string(runId.value()) + ":" + runName) {
    for (int k = 0; k < study.shardCount(); ++k) {
        auto w = std::make_unique<Writer>();
        w->appender = std::make_unique<RunAppender>(study.shard(k), runName_, runId);
        writers_.push_back(std::move(w));
    }
    for (auto& w : writers_)
        w->thread = std::thread([this, &w = *w] { work(w); });
}

ShardWriters::~ShardWriters() {
    {
        std::lock_guard lock(m_);
        stop_ = true;
        changed_.notify_all();
    }
    for (auto& w : writers_)
        if (w->thread.joinable())
            w->thread.join();
}

void ShardWriters::work(Writer& w) {
    const ProgressSink sink{nullptr, &stop_};
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_);
            changed_.wait(lock, [&] { return stop_ || !w.queue.empty(); });
            if (w.queue.empty()) // stopped
                return;
            job = std::move(w.queue.front());
            w.queue.pop_front();
            w.busy = true;
        }
        try {
            w.appender->appendWithIds(job.part->trace, job.ids, sink);
            w.uncommitted += static_cast<std::int64_t>(job.part->trace.eventCount());
            job.part.reset();
            if (w.uncommitted >= kCommitEveryEvents) {
                w.appender->commitSoFar();
                w.uncommitted = 0;
            }
        } catch (...) {
            std::lock_guard lock(m_);
            if (!error_)
                error_ = std::current_exception();
            stop_ = true;
            w.busy = false;
            changed_.notify_all();
            return;
        }
        if (stored_)
            stored_(job.bytes);
        std::lock_guard lock(m_);
        w.busy = false;
        changed_.notify_all();
    }
}

void ShardWriters::rethrowError() {
    if (error_)
        std::rethrow_exception(error_);
    if (stop_)
        throw Cancelled();
}

void ShardWriters::hand(std::size_t k, std::unique_ptr<PreparedPart> part, std::vector<std::int64_t> ids,
                        std::uint64_t bytes) {
    Writer& w = *writers_[k % writers_.size()];
    std::unique_lock lock(m_);
    changed_.wait(lock, [&] { return stop_ || w.queue.empty(); });
    rethrowError();
    w.queue.push_back(Job{std::move(part), std::move(ids), bytes});
    changed_.notify_all();
}

void ShardWriters::finish(const RunInfo& info) {
    {
        std::unique_lock lock(m_);
        changed_.wait(lock, [&] {
            if (stop_)
                return true;
            for (const auto& w : writers_)
                if (w->busy || !w->queue.empty())
                    return false;
            return true;
        });
        rethrowError();
        stop_ = true; // every queue is empty: the writers leave
        changed_.notify_all();
    }
    for (auto& w : writers_)
        w->thread.join();
    RunInfo named = info;
    named.name = runName_;
    for (auto& w : writers_)
        w->appender->finish(named);
}

std::int64_t ShardWriters::events() const {
    std::int64_t n = 0;
    for (const auto& w : writers_)
        n += w->appender->eventCount();
    return n;
}

} // namespace cnp
