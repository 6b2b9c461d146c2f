#pragma once
// The one table of memory-kind names (CUpti_ActivityMemoryKind order) every importer, exporter and view
// uses, so a kind reads the same whatever the trace came from: the label of Nsight Systems' memcpy names
// ("Device Static"), and the snake-case identifier of toString(MemoryKind) ("device_static", CSV).
#include "core/TraceData.h"

#include <string_view>

namespace cnp {

// "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"; "Unknown".
const char* memoryKindLabel(MemoryKind kind);
// "pageable", ..., "device_static", "managed_static"; "unknown".
const char* memoryKindId(MemoryKind kind);
// Either spelling, any case, surrounding blanks ignored; Unknown for anything else.
MemoryKind memoryKindFromName(std::string_view name);
// A raw CUPTI / .cnpt memory-kind number; Unknown outside the table.
MemoryKind memoryKindFromCupti(unsigned value);

} // namespace cnp
