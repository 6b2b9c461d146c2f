#pragma once
// Name and enum conversions between Nsight Systems' export and our TraceData (docs/nsys-mapping.md).
#include "core/TraceData.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cnp::nsys {

// Removes a trailing API version suffix `_v<digits>`: "cudaLaunchKernel_v7000" -> "cudaLaunchKernel",
// "cudaMemcpyAsync_ptsz_v7000" -> "cudaMemcpyAsync_ptsz" (the per-thread-default-stream variants
// `_ptsz`/`_ptds` are kept: they are different entry points, and nsys's own reports keep them),
// "cuMemAlloc_v2" -> "cuMemAlloc". Names without such a suffix are returned unchanged. O(length).
std::string_view stripApiVersionSuffix(std::string_view name);

// copyKind of CUPTI_ACTIVITY_KIND_MEMCPY (ENUM_CUDA_MEMCPY_OPER): 0..10 are CUPTI's values; the
// unified-memory kinds 11/12/13 fold into HtoD/DtoH/DtoD.
MemcpyKind memcpyKindFromNsys(std::int64_t copyKind);
// srcKind/dstKind/memKind (ENUM_CUDA_MEM_KIND, CUDA_MEMOPR_MEMORY_KIND_*): nsys counts from
// 0 = pageable and uses 7 for unknown; CUPTI (our MemoryKind) counts from 1 = pageable, 0 = unknown.
MemoryKind memoryKindFromNsys(std::int64_t memKind);

// NvDriverVersion 52510517 -> "525.105.17"; 0 or negative -> "". (CUDA versions:
// import/common/CudaVersionText.h; memcpy/memset names: import/common/CopyNames.h.)
std::string formatDriverVersion(std::int64_t v);

// Serialized GlobalId (globalTid/globalPid) fields: pid = bits 24..47, tid = bits 0..23.
constexpr std::int64_t pidOf(std::int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}
constexpr std::int64_t tidOf(std::int64_t globalId) {
    return globalId & 0xFFFFFF;
}

} // namespace cnp::nsys
