#pragma once
// Per-rank facts of one run for the Run page: rank, local rank, host, pid, GPUs, clock offset applied
// at alignment (from the run's smallest when they are a clock epoch's) and the residual clock-skew estimate
// (ns, shown in µs), source file.
// The rows come from the workspace's `ranks` table (docs/schema.md); nothing is computed here.
#include "core/Ids.h"
#include "core/TraceData.h"

#include "RowTableModel.h"

#include <optional>
#include <vector>

namespace cnp {
class Workspace;
}

namespace cnp::wb {

class RankTableModel : public RowTableModel<RankInfo> {
    Q_OBJECT
public:
    enum Column {
        RankColumn = 0,
        LocalRankColumn,
        HostColumn,
        PidColumn,
        GpuColumn,
        OffsetColumn,
        SkewColumn,
        SourceColumn,
        ColumnCount
    };
    explicit RankTableModel(QObject* parent = nullptr);

    // Reads the ranks of `runId` (a few rows per run: fine on the GUI thread).
    static std::vector<RankInfo> readRanks(const Workspace& ws, RunId runId);
    // An hour's offset or more is a clock epoch's (a synthetic run's): the ranks then show their offset
    // from the run's smallest ("base + 12.4 µs"), the exact figure and the base in the tooltip.
    void setRanks(std::vector<RankInfo> ranks);
    const std::vector<RankInfo>& ranks() const { return rows(); }

private:
    QString offsetText(Ns offset) const;
    std::optional<Ns> offsetBase_; // the run's smallest offset, when they are epoch-like
};

} // namespace cnp::wb
