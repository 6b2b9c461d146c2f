#include "launch/JsonObjectStream.h"

namespace cnp::launch {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

} // namespace

std::optional<std::string> JsonObjectStream::next() {
    while (scan_ < buf_.size()) {
        const char c = buf_[scan_++];
        if (depth_ == 0) {
            if (c == '{') {
                start_ = scan_ - 1;
                depth_ = 1;
            } else if (!isSpace(c)) {
                ++skipped_;
            }
            continue;
        }
        if (inString_) {
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"')
                inString_ = false;
        } else if (c == '"') {
            inString_ = true;
        } else if (c == '{' || c == '[') {
            ++depth_;
        } else if ((c == '}' || c == ']') && --depth_ == 0) {
            if (!overlong_)
                return buf_.substr(start_, scan_ - start_);
            overlong_ = false; // what is left of a dropped object is not an object
            continue;
        }
        if (!overlong_ && scan_ - start_ > kMaxObjectBytes) {
            overlong_ = true;
            ++dropped_;
        }
    }
    compact();
    return std::nullopt;
}

// Keeps only the partial object (none between objects, nothing of a dropped one).
void JsonObjectStream::compact() {
    const std::size_t keepFrom = depth_ > 0 && !overlong_ ? start_ : scan_;
    buf_.erase(0, keepFrom);
    scan_ -= keepFrom;
    start_ = 0;
}

} // namespace cnp::launch
