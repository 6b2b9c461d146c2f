#pragma once
// A RapidJSON input stream (Peek/Take/Tell) over a ByteSource, refilled in 1 MiB chunks.
// Invariant: `cur_` always points at a readable byte - the next content byte, or a '\0' sentinel
// once the content is exhausted - so Peek() and Take() are a load and a compare (inlined), and only
// a chunk boundary calls the out-of-line refill. Tell() is the offset in the (decompressed) content.
// `onChunk` runs after every refill (progress, cancellation); it may throw.
#include "import/common/ByteSource.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace cnp {

class JsonByteStream {
public:
    using Ch = char; // RapidJSON stream concept

    explicit JsonByteStream(ByteSource& source, std::size_t chunkBytes = 1 << 20);

    Ch Peek() const { return *cur_; }
    Ch Take() {
        const Ch c = *cur_;
        if (++cur_ == end_)
            refill();
        return c;
    }
    std::size_t Tell() const {
        return static_cast<std::size_t>(consumedBefore_) + static_cast<std::size_t>(cur_ - buffer_.data());
    }

    // Write side of the concept; never used for a read-only (non-insitu) parse.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    std::size_t PutEnd(Ch*) { return 0; }

    std::function<void()> onChunk;

private:
    void refill();

    ByteSource& source_;
    std::vector<Ch> buffer_;
    Ch* cur_ = nullptr;
    Ch* end_ = nullptr;
    std::int64_t consumedBefore_ = 0; // content bytes in chunks before the current one
    bool eof_ = false;
};

} // namespace cnp
