#pragma once
// The occurrences (individual launches) of one kernel name in one run, for the Kernels page: rank,
// device, stream, start (since the run start, runTimeOrigin(): the timeline's origin), duration, grid,
// block, registers per thread and shared memory (static + dynamic).
// readOccurrences() lists stored rows (no statistics): O(occurrences) with the kernels index.
#include "core/TraceData.h"

#include "RowTableModel.h"

#include <vector>

namespace cnp {
class Workspace;
}

namespace cnp::wb {

struct KernelOccurrence {
    std::int32_t rank = 0, device = 0;
    std::int64_t stream = 0;
    Ns start = 0, end = 0;
    std::int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    std::int32_t registers = 0;
    std::int64_t staticSmem = 0, dynamicSmem = 0; // bytes
};

class KernelOccurrencesModel : public RowTableModel<KernelOccurrence> {
    Q_OBJECT
public:
    enum Column {
        RankColumn = 0,
        DeviceColumn,
        StreamColumn,
        StartColumn,
        DurationColumn,
        GridColumn,
        BlockColumn,
        RegistersColumn,
        SharedMemoryColumn,
        ColumnCount
    };
    explicit KernelOccurrencesModel(QObject* parent = nullptr);

    // Occurrences of `kernelName` in `runId` (rank -1 = all), in start order, at most `limit` rows.
    static std::vector<KernelOccurrence> readOccurrences(const Workspace& ws, std::int64_t runId,
                                                         const std::string& kernelName, std::int32_t rank,
                                                         std::size_t limit);
    // `runStart`: the run's time origin (runTimeOrigin()); starts are shown relative to it.
    void setOccurrences(std::vector<KernelOccurrence> rows, Ns runStart);
    const std::vector<KernelOccurrence>& occurrences() const { return rows(); }

private:
    Ns origin_ = 0;
};

} // namespace cnp::wb
