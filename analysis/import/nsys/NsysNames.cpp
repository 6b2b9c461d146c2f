#include "import/nsys/NsysNames.h"

namespace cnp::nsys {

std::string_view stripApiVersionSuffix(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        --i;
    if (i == name.size() || i < 3 || name[i - 1] != 'v' || name[i - 2] != '_')
        return name;
    return name.substr(0, i - 2);
}

MemcpyKind memcpyKindFromNsys(std::int64_t copyKind) {
    if (copyKind >= 0 && copyKind <= 10)
        return static_cast<MemcpyKind>(copyKind);
    switch (copyKind) {
    case 11:
        return MemcpyKind::HtoD;
    case 12:
        return MemcpyKind::DtoH;
    case 13:
        return MemcpyKind::DtoD;
    default:
        return MemcpyKind::Unknown;
    }
}

MemoryKind memoryKindFromNsys(std::int64_t memKind) {
    if (memKind >= 0 && memKind <= 6)
        return static_cast<MemoryKind>(memKind + 1);
    return MemoryKind::Unknown;
}

std::string formatDriverVersion(std::int64_t v) {
    if (v <= 0)
        return {};
    const auto major = v / 100000, minor = (v / 100) % 1000, patch = v % 100;
    std::string s = std::to_string(major) + "." + std::to_string(minor);
    if (patch > 0)
        s += "." + std::string(patch < 10 ? "0" : "") + std::to_string(patch);
    return s;
}

} // namespace cnp::nsys
