#include "import/common/JsonByteStream.h"

namespace cnp {

JsonByteStream::JsonByteStream(ByteSource& source, std::size_t chunkBytes)
    : source_(source), buffer_(chunkBytes + 1) {
    cur_ = end_ = buffer_.data();
    refill();
}

void JsonByteStream::refill() {
    if (eof_) {
        // Stay on the sentinel: Take() at the end keeps returning '\0'.
        cur_ = buffer_.data();
        end_ = cur_ + 1;
        return;
    }
    consumedBefore_ += end_ - buffer_.data();
    const std::size_t n = source_.read(buffer_.data(), buffer_.size() - 1);
    cur_ = buffer_.data();
    if (n == 0) {
        eof_ = true;
        buffer_[0] = '\0';
        end_ = cur_ + 1; // the sentinel is never counted: consumedBefore_ stops growing at eof
    } else {
        end_ = cur_ + n;
    }
    if (onChunk)
        onChunk();
}

} // namespace cnp
