#include "core/MemoryKindNames.h"

#include <array>
#include <cctype>

namespace cnp {

namespace {

struct KindName {
    MemoryKind kind;
    const char* label;
    const char* id;
};

// Indexed by the MemoryKind value (= CUpti_ActivityMemoryKind).
constexpr std::array<KindName, 8> kNames{{{MemoryKind::Unknown, "Unknown", "unknown"},
                                          {MemoryKind::Pageable, "Pageable", "pageable"},
                                          {MemoryKind::Pinned, "Pinned", "pinned"},
                                          {MemoryKind::Device, "Device", "device"},
                                          {MemoryKind::Array, "Array", "array"},
                                          {MemoryKind::Managed, "Managed", "managed"},
                                          {MemoryKind::DeviceStatic, "Device Static", "device_static"},
                                          {MemoryKind::ManagedStatic, "Managed Static", "managed_static"}}};

const KindName& entry(MemoryKind kind) {
    const auto i = static_cast<std::size_t>(kind);
    return i < kNames.size() ? kNames[i] : kNames[0];
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

} // namespace

const char* memoryKindLabel(MemoryKind kind) {
    return entry(kind).label;
}

const char* memoryKindId(MemoryKind kind) {
    return entry(kind).id;
}

MemoryKind memoryKindFromName(std::string_view name) {
    name = trim(name);
    for (const auto& k : kNames)
        if (k.kind != MemoryKind::Unknown &&
            (equalsIgnoreCase(name, k.label) || equalsIgnoreCase(name, k.id)))
            return k.kind;
    return MemoryKind::Unknown;
}

MemoryKind memoryKindFromCupti(unsigned value) {
    return value < kNames.size() ? kNames[value].kind : MemoryKind::Unknown;
}

} // namespace cnp
