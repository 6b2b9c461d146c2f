#include "core/NameBound.h"

namespace cnp {

namespace {

// Room kept for the marker "...[N bytes]" (N < 2^64: at most 31 bytes).
constexpr std::size_t kMarkerRoom = 32;
constexpr std::string_view kMarkerStart = "...[", kMarkerEnd = " bytes]";

} // namespace

std::string truncatedName(std::string_view name) {
    std::size_t n = kMaxNameBytes - kMarkerRoom;
    while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) // name[n] continues a character
        --n;
    return std::string(name.substr(0, n)) + std::string(kMarkerStart) + std::to_string(name.size()) +
           std::string(kMarkerEnd);
}

bool isTruncatedName(std::string_view name) {
    if (name.size() < kMaxNameBytes - kMarkerRoom || name.size() < kMarkerEnd.size() ||
        name.substr(name.size() - kMarkerEnd.size()) != kMarkerEnd)
        return false;
    const std::size_t open = name.rfind(kMarkerStart);
    if (open == std::string_view::npos)
        return false;
    const std::string_view digits =
        name.substr(open + kMarkerStart.size(), name.size() - kMarkerEnd.size() - open - kMarkerStart.size());
    return !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
}

std::size_t countTruncatedNames(const StringTable& strings) {
    std::size_t n = 0;
    for (const auto& s : strings.all())
        n += isTruncatedName(s);
    return n;
}

} // namespace cnp
