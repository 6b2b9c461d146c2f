#include "core/PackedBytes.h"

#include "core/InputError.h"

#include <zlib.h>

#include <stdexcept>

namespace cnp {

namespace {

// "2 GiB" for a whole number of GiB, else the bytes.
std::string sizeText(std::uint64_t bytes) {
    constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
    return bytes % kGiB == 0 ? std::to_string(bytes / kGiB) + " GiB" : std::to_string(bytes) + " bytes";
}

} // namespace

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void putText(std::string& out, std::string_view s) {
    putVarint(out, s.size());
    out += s;
}

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

std::string deflateWithLength(std::string_view raw) {
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<char>((std::uint64_t{raw.size()} >> (8 * i)) & 0xff);
    uLongf size = ::compressBound(static_cast<uLong>(raw.size()));
    out.resize(8 + size);
    if (::compress2(reinterpret_cast<Bytef*>(out.data() + 8), &size,
                    reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
                    Z_BEST_SPEED) != Z_OK)
        throw std::runtime_error("deflateWithLength: zlib could not compress");
    out.resize(8 + size);
    return out;
}

std::string inflateWithLength(std::string_view packed, std::uint64_t maxRaw, const std::string& file,
                              const std::string& what) {
    if (packed.size() < 8)
        throw InputError(file, what + ": shorter than its 8-byte length");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(packed[static_cast<std::size_t>(i)]);
    if (n > maxRaw)
        throw InputError(file, what + ": states " + std::to_string(n) + " raw bytes, more than the " +
                                   sizeText(maxRaw) + " it may hold");
    std::string raw(n, '\0');
    uLongf got = static_cast<uLongf>(n);
    uLong used = static_cast<uLong>(packed.size() - 8);
    const int rc = ::uncompress2(reinterpret_cast<Bytef*>(raw.data()), &got,
                                 reinterpret_cast<const Bytef*>(packed.data() + 8), &used);
    if (rc != Z_OK || got != n || used != packed.size() - 8) // bytes after the stream are refused too
        throw InputError(file, what + ": not a whole zlib stream of the length it states");
    return raw;
}

std::uint64_t PackedReader::varintSlow() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (at_ >= p_.size())
            fail("ends inside a number");
        const auto b = static_cast<unsigned char>(p_[at_++]);
        v |= std::uint64_t{b & 0x7fU} << shift;
        if ((b & 0x80U) == 0)
            return v;
    }
    fail("holds a number longer than 64 bits");
}

std::string PackedReader::text() {
    const std::uint64_t n = varint();
    if (n > left())
        fail("names a text longer than what is left");
    std::string s(p_.substr(at_, n));
    at_ += n;
    return s;
}

unsigned char PackedReader::byte() {
    if (at_ >= p_.size())
        fail("ends inside a byte");
    return static_cast<unsigned char>(p_[at_++]);
}

void PackedReader::fail(const std::string& why) const {
    throw InputError(file_, what_ + ": " + why, static_cast<std::int64_t>(at_));
}

} // namespace cnp
