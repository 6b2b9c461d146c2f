#pragma once
// The occurrences (individual launches) of one kernel name in one run, read from table `kernels`: no
// statistics, the stored rows. O(rows of the run's kernel id range) per call (no name index: the run's
// range is scanned once, the name compared as a string id).
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

struct KernelOccurrence {
    std::int32_t rank = 0, device = 0;
    std::int64_t stream = 0;
    Ns start = 0, end = 0;
    std::int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    std::int32_t registers = 0;
    std::int64_t staticSmem = 0, dynamicSmem = 0; // bytes
};

class KernelOccurrenceQueries {
public:
    explicit KernelOccurrenceQueries(const Workspace& ws) : ws_(ws) {}

    // Occurrences of `kernelName` in `runId` (rank -1 = all ranks), in start order, at most `limit` rows.
    std::vector<KernelOccurrence> occurrences(RunId runId, const std::string& kernelName, std::int32_t rank,
                                              std::size_t limit) const;

private:
    const Workspace& ws_;
};

} // namespace cnp
