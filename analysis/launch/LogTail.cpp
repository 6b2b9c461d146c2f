#include "launch/LogTail.h"

#include <vector>

namespace cnp::launch {

namespace {

bool isBlank(unsigned char c) {
    return c <= ' ' || c == 0x7f;
}

// `line` without leading and trailing blanks, its other control characters as spaces.
std::string cleaned(const std::string& line) {
    std::size_t b = 0, e = line.size();
    while (b < e && isBlank(static_cast<unsigned char>(line[b])))
        ++b;
    while (e > b && isBlank(static_cast<unsigned char>(line[e - 1])))
        --e;
    std::string out = line.substr(b, e - b);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < ' ' || c == 0x7f)
            c = ' ';
    return out;
}

} // namespace

std::string logTail(const std::string& log, std::size_t maxLines, std::size_t maxChars) {
    std::vector<std::string> lines; // the last ones, newest first
    std::size_t end = log.size();
    while (end > 0 && lines.size() < maxLines) {
        const std::size_t nl = log.rfind('\n', end - 1);
        const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
        // A carriage return inside a line (a progress bar) keeps only what was drawn last.
        std::string line = log.substr(begin, end - begin);
        if (const std::size_t cr = line.find_last_of('\r', line.size() >= 2 ? line.size() - 2 : 0);
            cr != std::string::npos && cr + 1 < line.size())
            line = line.substr(cr + 1);
        if (std::string c = cleaned(line); !c.empty())
            lines.push_back(std::move(c));
        if (nl == std::string::npos)
            break;
        end = nl;
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
        out += (out.empty() ? "" : " | ") + *it;
    if (out.size() <= maxChars)
        return out;
    std::size_t cut = out.size() - maxChars;
    while (cut < out.size() && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
        ++cut; // a continuation byte: start at the next character
    return "…" + out.substr(cut);
}

} // namespace cnp::launch
