#include "ingest/KernelDigest.h"

#include "core/InputError.h"

#include <zlib.h>

#include <limits>
#include <vector>

namespace cnp {

namespace {

constexpr std::uint64_t kMaxRawBytes = std::uint64_t{2} << 30;

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

void putText(std::string& out, const std::string& s) {
    putVarint(out, s.size());
    out += s;
}

// Reads the raw bytes; every read checks what is left, so no length in them reaches past the end.
class RawReader {
public:
    RawReader(std::string_view bytes, const std::string& file) : p_(bytes), file_(file) {}
    std::uint64_t varint() {
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
    std::string text() {
        const std::uint64_t n = varint();
        if (n > p_.size() - at_)
            fail("names a text longer than what is left");
        std::string s(p_.substr(at_, n));
        at_ += n;
        return s;
    }
    unsigned char byte() {
        if (at_ >= p_.size())
            fail("ends inside a group");
        return static_cast<unsigned char>(p_[at_++]);
    }
    std::size_t left() const { return p_.size() - at_; }
    [[noreturn]] void fail(const std::string& why) const {
        throw InputError(file_, "shard_part kernel_groups: the digest " + why,
                         static_cast<std::int64_t>(at_));
    }

private:
    std::string_view p_;
    std::size_t at_ = 0;
    const std::string& file_;
};

std::string inflateDigest(std::string_view digest, const std::string& file) {
    if (digest.size() < 8)
        throw InputError(file, "shard_part kernel_groups: shorter than its 8-byte length");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(digest[static_cast<std::size_t>(i)]);
    if (n > kMaxRawBytes)
        throw InputError(file, "shard_part kernel_groups: states " + std::to_string(n) +
                                   " raw bytes, more than the 2 GiB a digest may hold");
    std::string raw(n, '\0');
    uLongf got = static_cast<uLongf>(n);
    const int rc = ::uncompress(reinterpret_cast<Bytef*>(raw.data()), &got,
                                reinterpret_cast<const Bytef*>(digest.data() + 8),
                                static_cast<uLong>(digest.size() - 8));
    if (rc != Z_OK || got != n)
        throw InputError(file, "shard_part kernel_groups: not a whole zlib stream of the length it states");
    return raw;
}

} // namespace

void KernelDigestWriter::beginName(const std::string& name, const std::string& category,
                                   bool categoryFromRangeRule, std::int32_t categoryRank,
                                   std::int64_t count) {
    putText(raw_, name);
    putText(raw_, category);
    raw_.push_back(categoryFromRangeRule ? '\1' : '\0');
    putVarint(raw_, zigzag(categoryRank));
    putVarint(raw_, static_cast<std::uint64_t>(count));
    ++names_;
    first_ = true;
}

void KernelDigestWriter::duration(Ns d) {
    putVarint(raw_, first_ ? zigzag(d) : static_cast<std::uint64_t>(d - last_));
    first_ = false;
    last_ = d;
}

std::string KernelDigestWriter::finish() {
    std::string head;
    putVarint(head, names_);
    const std::string raw = head + raw_;
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<char>((std::uint64_t{raw.size()} >> (8 * i)) & 0xff);
    uLongf size = ::compressBound(static_cast<uLong>(raw.size()));
    out.resize(8 + size);
    if (::compress2(reinterpret_cast<Bytef*>(out.data() + 8), &size,
                    reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
                    Z_BEST_SPEED) != Z_OK)
        throw std::runtime_error("KernelDigestWriter: zlib could not compress the digest");
    out.resize(8 + size);
    return out;
}

void addKernelDigest(std::string_view digest, std::int64_t format, const std::string& file,
                     KernelStatsPool& pool) {
    if (format != KernelDigestWriter::kFormat)
        throw InputError(file, "shard_part kernel_groups: format " + std::to_string(format) +
                                   " (this cnp reads format " + std::to_string(KernelDigestWriter::kFormat) +
                                   ")");
    const std::string raw = inflateDigest(digest, file);
    RawReader rd(raw, file);
    for (std::uint64_t names = rd.varint(); names > 0; --names) {
        const std::string name = rd.text();
        const std::string category = rd.text();
        const bool fromRangeRule = rd.byte() != 0;
        const std::int64_t rank = unzigzag(rd.varint());
        if (rank < std::numeric_limits<std::int32_t>::min() ||
            rank > std::numeric_limits<std::int32_t>::max())
            rd.fail("names rank " + std::to_string(rank));
        const std::uint64_t count = rd.varint();
        if (count > rd.left()) // each duration takes at least a byte
            rd.fail("states more durations than it holds");
        std::vector<Ns> durations(count);
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::uint64_t v = rd.varint();
            if (k == 0) {
                durations[k] = unzigzag(v);
            } else {
                if (v > static_cast<std::uint64_t>(std::numeric_limits<Ns>::max() - durations[k - 1]))
                    rd.fail("holds a duration past the largest");
                durations[k] = durations[k - 1] + static_cast<Ns>(v);
            }
        }
        pool.add(static_cast<std::int32_t>(rank), name, category, fromRangeRule, std::move(durations));
    }
    if (rd.left() != 0)
        rd.fail("has bytes after its last name");
}

} // namespace cnp
