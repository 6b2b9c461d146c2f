#pragma once
// The arguments of one NCCL collective call as a trace records them on its kernel (PyTorch profiler:
// "Collective name", "In msg nelems", "Out msg nelems", "dtype", "Group size", "Process Group Name",
// "Process Group Description", "Process Group Ranks"; docs/schema.md, collective_args). Keyed to its
// kernel by (rank, stream, kernel start): a kernel's start is unique on its stream. Every value is bounded
// at intake (collectiveNelems, collectiveDtypeBytes, collectiveGroupSize): a value outside is stored as
// unknown, so no product below overflows.
#include "core/StringTable.h"

#include <cstdint>
#include <string_view>

namespace cnp {

struct CollectiveArgs {
    std::int32_t rank = 0;
    std::int64_t stream = 0;
    std::int64_t start = 0;        // its kernel's start (ns, the run's clock)
    StringId op = 0;               // the profiler's collective name ("allreduce", "_allgather_base")
    std::int64_t inNelems = -1;    // elements of one rank's input, -1 = unknown
    std::int64_t outNelems = -1;   // elements of one rank's output, -1 = unknown
    StringId dtype = 0;            // the profiler's element type ("Float", "BFloat16")
    std::int32_t dtypeBytes = 0;   // bytes per element, 0 = unknown
    std::int32_t groupSize = 0;    // ranks in the process group, 0 = unknown
    StringId groupName = 0;        // "Process Group Name" ("0")
    StringId groupDescription = 0; // "default_pg"
    StringId groupRanks = 0;       // "[0, 1]" as given (bounded like every name, core/NameBound.h)

    // nccl-tests' size of the operation in bytes: max(in, out) elements x dtypeBytes (all-gather's
    // gathered output, reduce-scatter's input, the message of the others); 0 when unknown.
    std::int64_t bytes() const;
};

// Bounds of the stored values: at most 2^50 elements (a petabyte of bytes is far beyond any message),
// a group of 1 to 2^24 ranks.
inline constexpr std::int64_t kMaxCollectiveNelems = std::int64_t{1} << 50;
inline constexpr std::int64_t kMaxCollectiveGroupSize = std::int64_t{1} << 24;

// v when 0 <= v <= kMaxCollectiveNelems, else -1 (unknown).
std::int64_t collectiveNelems(std::int64_t v);
// v when 1 <= v <= kMaxCollectiveGroupSize, else 0 (unknown).
std::int32_t collectiveGroupSize(std::int64_t v);
// Bytes per element of a PyTorch dtype name as the profiler writes it ("Float" 4, "BFloat16" 2,
// "Long" 8, "Byte" 1, "Float8_e4m3fn" 1, ...); 0 for a name it does not know.
std::int32_t collectiveDtypeBytes(std::string_view dtype);

} // namespace cnp
