#pragma once
// The byte forms the packed summary blobs share (ingest/KernelDigest, store/GapPack): LEB128 varints,
// zigzag for signed values, varint-length texts, and a zlib stream behind an 8-byte little-endian length
// of its raw bytes. Readers of stored bytes are hostile-input safe: every read checks what is left and a
// stated raw length is bounded before anything is allocated.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace cnp {

void putVarint(std::string& out, std::uint64_t v);
void putText(std::string& out, std::string_view s);
// Signed <-> unsigned with small magnitudes staying small: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ...
std::uint64_t zigzag(std::int64_t v);
std::int64_t unzigzag(std::uint64_t v);

// `raw` compressed (zlib, fastest level) behind its length: 8 bytes little-endian, then the stream.
std::string deflateWithLength(std::string_view raw);
// The raw bytes of deflateWithLength's form. Throws InputError(file, "<what>: ...") when the bytes are
// shorter than the length, state more than `maxRaw` raw bytes, or are not one zlib stream of exactly
// that length with nothing after it. O(raw bytes).
std::string inflateWithLength(std::string_view packed, std::uint64_t maxRaw, const std::string& file,
                              const std::string& what);

// Sequential reads of raw bytes; every failure throws InputError(file, "<what>: <why>", offset).
class PackedReader {
public:
    PackedReader(std::string_view bytes, const std::string& file, std::string what)
        : p_(bytes), file_(file), what_(std::move(what)) {}
    // Inline for a one-byte value (most deltas), else varintSlow. Same checks either way.
    std::uint64_t varint() {
        if (at_ < p_.size()) {
            const auto b = static_cast<unsigned char>(p_[at_]);
            if ((b & 0x80U) == 0) {
                ++at_;
                return b;
            }
        }
        return varintSlow();
    }
    std::int64_t signedVarint() { return unzigzag(varint()); }
    std::string text();
    unsigned char byte();
    std::size_t left() const { return p_.size() - at_; }
    [[noreturn]] void fail(const std::string& why) const;

private:
    std::uint64_t varintSlow();

    std::string_view p_;
    std::size_t at_ = 0;
    const std::string& file_;
    std::string what_;
};

} // namespace cnp
