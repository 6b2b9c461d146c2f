#pragma once
// Fixed pool of activity buffers handed to CUPTI, plus the queue of completed buffers waiting for the writer
// thread. All memory is allocated once by the constructor: acquire()/complete()/popCompleted()/release()
// never allocate, so CUPTI's buffer callbacks stay off the allocator. Memory use is bounded by
// count * size, all of it resident from the start (pages are touched up front). Thread-safe (one mutex;
// critical sections are O(1)). Plain C++: tested without CUDA.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace cnp::collector {

struct CompletedBuffer {
    std::uint8_t* data = nullptr;
    std::size_t validBytes = 0;
    std::uint64_t dropped = 0; // CUPTI's dropped-record count reported with this buffer
    std::uint32_t context = 0, stream = 0;
};

class BufferPool {
public:
    // `count` buffers of `size` bytes, 8-byte aligned (CUPTI's requirement).
    BufferPool(std::size_t count, std::size_t size);
    ~BufferPool();
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;

    std::size_t bufferSize() const { return size_; }
    std::size_t capacity() const { return all_.size(); }

    // A free buffer, or nullptr when all are in use (CUPTI then drops records and counts them).
    std::uint8_t* acquire();
    // Queues a buffer CUPTI has filled. Never fails: the queue has room for every buffer of the pool.
    void complete(const CompletedBuffer& b);
    // Takes the oldest completed buffer; false when none.
    bool popCompleted(CompletedBuffer& out);
    // Returns a processed buffer to the free list. Buffers not from this pool are ignored.
    void release(std::uint8_t* data);

    std::size_t freeCount() const;
    std::size_t completedCount() const;
    std::uint64_t exhaustedCount() const; // acquire() calls that found no free buffer

private:
    std::size_t size_;
    std::vector<std::uint8_t*> all_;
    std::vector<std::uint8_t*> free_;        // stack, capacity = count
    std::vector<CompletedBuffer> completed_; // ring, capacity = count
    std::size_t head_ = 0, queued_ = 0;
    std::uint64_t exhausted_ = 0;
    mutable std::mutex mutex_;
};

} // namespace cnp::collector
