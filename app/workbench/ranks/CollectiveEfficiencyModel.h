#pragma once
// The collectives' efficiency per operation and message size as a table (metrics/CollectiveEfficiency.h,
// docs/metrics.md "Collective efficiency"): operation, size bucket, calls, inter-node calls, transfer,
// exposed and overlapped communication (the members' kernel time outside / under their rank's compute
// kernels; overlapped with its share), median bus bandwidth and its share of the fabric's peak. Sortable
// through SortRole (numbers).
#include "metrics/CollectiveEfficiency.h"

#include "RowTableModel.h"

namespace cnp::wb {

class CollectiveEfficiencyModel : public RowTableModel<CollectiveEfficiencyRow> {
    Q_OBJECT
public:
    enum Column {
        OperationColumn = 0,
        SizeColumn,
        CallsColumn,
        InterNodeColumn,
        TransferColumn,
        ExposedColumn,
        OverlappedColumn,
        BusBwColumn,
        PeakShareColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    explicit CollectiveEfficiencyModel(QObject* parent = nullptr);

    void setRows(std::vector<CollectiveEfficiencyRow> rows) { setRowsReset(std::move(rows)); }
};

} // namespace cnp::wb
