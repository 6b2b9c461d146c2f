#include "core/Utf8.h"

#include <cstdint>
#include <cstring>

namespace cnp {

namespace {
// Length of the well-formed sequence starting at s[i], or 0 when it is ill-formed there.
// On 0, `bad` is the length of the maximal ill-formed subpart to replace (>= 1).
std::size_t sequenceLength(std::string_view s, std::size_t i, std::size_t& bad) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    bad = 1;
    if (b0 < 0x80)
        return 1;
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        if (b0 == 0xE0)
            lo = 0xA0; // no overlongs
        else if (b0 == 0xED)
            hi = 0x9F; // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        if (b0 == 0xF0)
            lo = 0x90;
        else if (b0 == 0xF4)
            hi = 0x8F; // <= U+10FFFF
    } else {
        return 0;
    }
    for (std::size_t k = 1; k <= need; ++k) {
        if (i + k >= s.size())
            return 0;
        const auto b = static_cast<unsigned char>(s[i + k]);
        const unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
        if (b < l || b > h)
            return 0;
        bad = k + 1;
    }
    return need + 1;
}
} // namespace

bool isValidUtf8(std::string_view s) {
    std::size_t i = 0;
    const std::size_t n = s.size();
    while (i < n) {
        if (i + 8 <= n) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if ((w & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        std::size_t bad = 0;
        const std::size_t len = sequenceLength(s, i, bad);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

std::string repairUtf8(std::string_view s) {
    if (isValidUtf8(s))
        return std::string(s);
    std::string out;
    out.reserve(s.size() + 16);
    std::size_t i = 0;
    while (i < s.size()) {
        std::size_t bad = 0;
        const std::size_t len = sequenceLength(s, i, bad);
        if (len > 0) {
            out.append(s.data() + i, len);
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            i += bad;
        }
    }
    return out;
}

} // namespace cnp
