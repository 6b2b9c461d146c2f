#include "report/DrawnText.h"

namespace cnp::report {

std::string drawnText(const std::string& text) {
    if (text.size() <= kMaxDrawnBytes)
        return text;
    std::size_t cut = kMaxDrawnBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) // not inside a code point
        --cut;
    return text.substr(0, cut) + "\u2026";
}

} // namespace cnp::report
