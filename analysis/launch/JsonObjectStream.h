#pragma once
// Splits a byte stream of concatenated JSON objects — what `kubectl get --watch -o json` prints, compact
// one per line or pretty-printed over many — into one text per top-level object, as the bytes arrive in
// chunks of any size. Only the framing is checked (brackets counted outside strings, escapes inside
// them); each text is left for a JSON parser. Bytes between objects other than whitespace (a stray line on
// stdout) are skipped and counted. Amortised O(1) per byte fed. At most kMaxObjectBytes of a partial object
// are kept: a longer object is dropped (counted) while its end is still found, so the next one comes out.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cnp::launch {

class JsonObjectStream {
public:
    static constexpr std::size_t kMaxObjectBytes = 64u << 20;

    void feed(std::string_view bytes) { buf_.append(bytes); }
    // The next complete object's text, oldest first; nullopt when none is complete yet.
    std::optional<std::string> next();

    std::size_t skippedBytes() const { return skipped_; }
    std::size_t droppedObjects() const { return dropped_; }

private:
    void compact();

    std::string buf_;       // bytes fed and not yet handed out or discarded
    std::size_t scan_ = 0;  // buf_[0, scan_) has been scanned
    std::size_t start_ = 0; // where the object being scanned starts (depth_ > 0)
    int depth_ = 0;         // open brackets of the current object; 0 = between objects
    bool inString_ = false, escaped_ = false;
    bool overlong_ = false; // the current object passed kMaxObjectBytes: its bytes are being discarded
    std::size_t skipped_ = 0, dropped_ = 0;
};

} // namespace cnp::launch
