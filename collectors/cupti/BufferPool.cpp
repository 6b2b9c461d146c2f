#include "BufferPool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace cnp::collector {

BufferPool::BufferPool(std::size_t count, std::size_t size) : size_((size + 7) / 8 * 8) {
    all_.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        if (auto* p = static_cast<std::uint8_t*>(std::aligned_alloc(8, size_))) {
            // Touch every page now: CUPTI clears each buffer it receives, and first-touch page faults made
            // that take ~5 ms per 8 MiB buffer inside the application's thread (measured on an H200 VM).
            std::memset(p, 0, size_);
            all_.push_back(p);
        }
    free_ = all_;
    completed_.resize(all_.size());
}

BufferPool::~BufferPool() {
    for (auto* p : all_)
        std::free(p);
}

std::uint8_t* BufferPool::acquire() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
        ++exhausted_;
        return nullptr;
    }
    auto* p = free_.back();
    free_.pop_back();
    return p;
}

void BufferPool::complete(const CompletedBuffer& b) {
    std::lock_guard lock(mutex_);
    if (queued_ == completed_.size())
        return; // impossible for buffers of this pool; a foreign buffer is dropped
    completed_[(head_ + queued_) % completed_.size()] = b;
    ++queued_;
}

bool BufferPool::popCompleted(CompletedBuffer& out) {
    std::lock_guard lock(mutex_);
    if (queued_ == 0)
        return false;
    out = completed_[head_];
    head_ = (head_ + 1) % completed_.size();
    --queued_;
    return true;
}

void BufferPool::release(std::uint8_t* data) {
    std::lock_guard lock(mutex_);
    if (std::find(all_.begin(), all_.end(), data) == all_.end())
        return;
    if (std::find(free_.begin(), free_.end(), data) != free_.end())
        return; // double release
    free_.push_back(data);
}

std::size_t BufferPool::freeCount() const {
    std::lock_guard lock(mutex_);
    return free_.size();
}

std::size_t BufferPool::completedCount() const {
    std::lock_guard lock(mutex_);
    return queued_;
}

std::uint64_t BufferPool::exhaustedCount() const {
    std::lock_guard lock(mutex_);
    return exhausted_;
}

} // namespace cnp::collector
