#pragma once
// Kineto names GPU copies and fills after CUPTI's enums: "Memcpy HtoD (Pageable -> Device)",
// "Memcpy DtoD (Device -> Device)", "Memset (Device)"; ROCm writes "Memcpy HtoD (Host -> Device)".
// These helpers read the kind and memory kinds back from such names (memory kinds through the one table
// of core/MemoryKindNames.h). Unknown words map to Unknown.
#include "core/TraceData.h"

#include <string_view>

namespace cnp {

// "HtoD" -> MemcpyKind::HtoD ... (CUPTI's spellings: HtoD DtoH HtoA AtoH AtoA AtoD DtoA DtoD HtoH PtoP).
MemcpyKind memcpyKindFromText(std::string_view text);

// Parses "Memcpy <KIND> (<SRC> -> <DST>)"; fields it cannot read are set to Unknown.
void parseMemcpyName(std::string_view name, MemcpyKind& kind, MemoryKind& src, MemoryKind& dst);

// "Memset (Device)" -> Device; anything else -> Unknown.
MemoryKind memsetMemoryKind(std::string_view name);

} // namespace cnp
