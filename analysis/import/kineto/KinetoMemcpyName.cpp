#include "import/kineto/KinetoMemcpyName.h"

#include "core/MemoryKindNames.h"

#include <cctype>

namespace cnp {

namespace {
bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}
} // namespace

MemcpyKind memcpyKindFromText(std::string_view text) {
    static constexpr struct {
        std::string_view name;
        MemcpyKind kind;
    } kinds[] = {{"HtoD", MemcpyKind::HtoD}, {"DtoH", MemcpyKind::DtoH}, {"HtoA", MemcpyKind::HtoA},
                 {"AtoH", MemcpyKind::AtoH}, {"AtoA", MemcpyKind::AtoA}, {"AtoD", MemcpyKind::AtoD},
                 {"DtoA", MemcpyKind::DtoA}, {"DtoD", MemcpyKind::DtoD}, {"HtoH", MemcpyKind::HtoH},
                 {"PtoP", MemcpyKind::PtoP}};
    text = trim(text);
    for (const auto& k : kinds)
        if (equalsIgnoreCase(text, k.name))
            return k.kind;
    return MemcpyKind::Unknown;
}

void parseMemcpyName(std::string_view name, MemcpyKind& kind, MemoryKind& src, MemoryKind& dst) {
    kind = MemcpyKind::Unknown;
    src = dst = MemoryKind::Unknown;
    constexpr std::string_view prefix = "Memcpy ";
    if (name.substr(0, prefix.size()) != prefix)
        return;
    name.remove_prefix(prefix.size());
    const auto space = name.find(' ');
    kind = memcpyKindFromText(name.substr(0, space));
    if (space == std::string_view::npos)
        return;
    const auto open = name.find('(', space);
    const auto close = name.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return;
    const auto inner = name.substr(open + 1, close - open - 1);
    const auto arrow = inner.find("->");
    if (arrow == std::string_view::npos)
        return;
    src = memoryKindFromName(inner.substr(0, arrow));
    dst = memoryKindFromName(inner.substr(arrow + 2));
}

MemoryKind memsetMemoryKind(std::string_view name) {
    constexpr std::string_view prefix = "Memset";
    if (name.substr(0, prefix.size()) != prefix)
        return MemoryKind::Unknown;
    const auto open = name.find('(');
    const auto close = name.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return MemoryKind::Unknown;
    return memoryKindFromName(name.substr(open + 1, close - open - 1));
}

} // namespace cnp
