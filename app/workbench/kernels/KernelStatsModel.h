#pragma once
// Kernel statistics (RunSummaryReader::kernelStats: the cuda_gpu_kern_sum columns) as a table. Display
// text uses readable units; Qt::UserRole holds the raw number (ns, count, percent) that the proxy sorts
// by. The CSV export is export/KernelStatsCsv (the same layout as `cnp export`).
#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"

#include "RowTableModel.h"

#include <vector>

namespace cnp::wb {

class KernelStatsModel : public RowTableModel<KernelStatRow> {
    Q_OBJECT
public:
    enum Column {
        NameColumn = 0,
        CategoryColumn,
        CountColumn,
        TotalColumn,
        PercentColumn,
        MeanColumn,
        MedianColumn,
        MinColumn,
        MaxColumn,
        StddevColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;
    explicit KernelStatsModel(QObject* parent = nullptr);
    void setRows(std::vector<KernelStatRow> rows);

protected:
    QVariant extraData(const KernelStatRow& row, int column, int role) const override;
};

} // namespace cnp::wb
