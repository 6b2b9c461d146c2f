#include "core/CommaList.h"

namespace cnp {

std::vector<std::string> splitCommaList(std::string_view s) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        auto next = s.find(',', pos);
        if (next == std::string_view::npos)
            next = s.size();
        if (next > pos)
            out.emplace_back(s.substr(pos, next - pos));
        pos = next + 1;
    }
    return out;
}

} // namespace cnp
