#include "import/common/CopyNames.h"

#include "core/MemoryKindNames.h"

#include <cctype>

namespace cnp {

namespace {

// CUpti_ActivityMemcpyKind order: the index is the MemcpyKind value.
constexpr std::array<std::string_view, 11> kDirectionLabels{"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                            "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

std::string_view trimSpaces(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

// An enum value as a table index; values outside the table read as 0 (Unknown).
template <typename Enum> std::size_t indexOf(Enum e, std::size_t size) {
    const auto i = static_cast<std::size_t>(e);
    return i < size ? i : 0;
}

} // namespace

const char* CopyNames::directionLabel(MemcpyKind kind) {
    return kDirectionLabels[indexOf(kind, kDirectionLabels.size())].data();
}

MemcpyKind CopyNames::directionFromLabel(std::string_view text) {
    text = trimSpaces(text);
    for (std::size_t i = 1; i < kDirectionLabels.size(); ++i)
        if (equalsIgnoreCase(text, kDirectionLabels[i]))
            return static_cast<MemcpyKind>(i);
    return MemcpyKind::Unknown;
}

std::string CopyNames::memcpyName(MemcpyKind kind, MemoryKind src, MemoryKind dst) {
    return std::string("Memcpy ") + directionLabel(kind) + " (" + memoryKindLabel(src) + " -> " +
           memoryKindLabel(dst) + ")";
}

std::string CopyNames::memsetName(MemoryKind kind) {
    return std::string("Memset (") + memoryKindLabel(kind) + ")";
}

StringId CopyNames::memcpyId(MemcpyKind kind, MemoryKind src, MemoryKind dst) {
    const std::size_t k = indexOf(kind, kDirections), s = indexOf(src, kMemoryKinds),
                      d = indexOf(dst, kMemoryKinds);
    StringId& id = memcpyIds_[(k * kMemoryKinds + s) * kMemoryKinds + d];
    if (id == 0)
        id = strings_.intern(memcpyName(kind, src, dst));
    return id;
}

StringId CopyNames::memsetId(MemoryKind kind) {
    StringId& id = memsetIds_[indexOf(kind, kMemoryKinds)];
    if (id == 0)
        id = strings_.intern(memsetName(kind));
    return id;
}

void CopyNames::parseMemcpyName(std::string_view name, MemcpyKind& kind, MemoryKind& src, MemoryKind& dst) {
    kind = MemcpyKind::Unknown;
    src = dst = MemoryKind::Unknown;
    constexpr std::string_view prefix = "Memcpy ";
    if (name.substr(0, prefix.size()) != prefix)
        return;
    name.remove_prefix(prefix.size());
    const auto space = name.find(' ');
    kind = directionFromLabel(name.substr(0, space));
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

MemoryKind CopyNames::parseMemsetName(std::string_view name) {
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
