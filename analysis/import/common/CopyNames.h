#pragma once
// The one naming of GPU copies and fills that every importer stores, Kineto's (CUPTI's enum spellings):
// "Memcpy HtoD (Pageable -> Device)", "Memcpy DtoD (Device -> Device)", "Memset (Device)"; a direction or
// memory kind that is not known reads "Unknown" ("Memcpy Unknown (Unknown -> Device)"). Memory kinds come
// from the one table of core/MemoryKindNames.h. The .cnpt and nsys importers build these names, the Kineto
// importer reads them back into kinds, so runs compare by name whatever captured them.
// ROCm's Kineto writes "Memcpy HtoD (Host -> Device)": "Host" is no CUPTI memory kind and reads Unknown.
#include "core/StringTable.h"
#include "core/TraceData.h"

#include <array>
#include <string>
#include <string_view>

namespace cnp {

class CopyNames {
public:
    // Names are interned into `strings` on first use; the table must outlive this object.
    explicit CopyNames(StringTable& strings) : strings_(strings) {}

    // The interned name of a copy / fill, built once per distinct kind triple. O(1) after the first.
    StringId memcpyId(MemcpyKind kind, MemoryKind src, MemoryKind dst);
    StringId memsetId(MemoryKind kind);

    // "Memcpy HtoD (Pageable -> Device)"; "Memset (Device)".
    static std::string memcpyName(MemcpyKind kind, MemoryKind src, MemoryKind dst);
    static std::string memsetName(MemoryKind kind);
    // "HtoD", "DtoH", ... "PtoP"; "Unknown" for Unknown and values outside the enum.
    static const char* directionLabel(MemcpyKind kind);
    // The inverse of directionLabel, any case, surrounding spaces ignored; Unknown for other text.
    static MemcpyKind directionFromLabel(std::string_view text);

    // Reads "Memcpy <DIRECTION> (<SRC> -> <DST>)" back; fields it cannot read are Unknown. O(length).
    static void parseMemcpyName(std::string_view name, MemcpyKind& kind, MemoryKind& src, MemoryKind& dst);
    // "Memset (Device)" -> Device; anything else -> Unknown.
    static MemoryKind parseMemsetName(std::string_view name);

private:
    static constexpr std::size_t kDirections = 11, kMemoryKinds = 8; // the enums' value counts
    StringTable& strings_;
    // 0 = not interned yet (id 0 is "", never a copy name). Indexed by the enum values.
    std::array<StringId, kDirections * kMemoryKinds * kMemoryKinds> memcpyIds_{};
    std::array<StringId, kMemoryKinds> memsetIds_{};
};

} // namespace cnp
