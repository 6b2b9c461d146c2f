#pragma once
// The occurrences (individual launches) of one kernel name in one run, for the Kernels page: rank,
// device, stream, start (since the run start, runTimeOrigin(): the timeline's origin), duration, grid,
// block, registers per thread and shared memory (static + dynamic).
// readOccurrences() lists stored rows (no statistics): store/KernelOccurrenceQueries.
#include "core/TraceData.h"
#include "store/KernelOccurrenceQueries.h"

#include "RowTableModel.h"

#include <vector>

namespace cnp::wb {

using cnp::KernelOccurrence; // store/KernelOccurrenceQueries.h

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
    static std::vector<KernelOccurrence> readOccurrences(const Workspace& ws, RunId runId,
                                                         const std::string& kernelName, std::int32_t rank,
                                                         std::size_t limit);
    // `runStart`: the run's time origin (runTimeOrigin()); starts are shown relative to it.
    void setOccurrences(std::vector<KernelOccurrence> rows, Ns runStart);
    const std::vector<KernelOccurrence>& occurrences() const { return rows(); }

private:
    Ns origin_ = 0;
};

} // namespace cnp::wb
