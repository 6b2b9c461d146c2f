#pragma once
// The kernel diff table of a RunDiffResult: name, category, class, count A/B, total A/B, delta, mean
// per call A/B and their ratio (KernelDiffRow's), in the analysis' order (|delta| descending). Qt::UserRole
// holds raw values (ns, counts, strings) for sorting and filtering.
#include "requests/RunDiffRequest.h"

#include "RowTableModel.h"

namespace cnp::wb {

class KernelDiffModel : public RowTableModel<KernelDiffRow> {
    Q_OBJECT
public:
    enum Column {
        NameColumn = 0,
        CategoryColumn,
        ClassColumn,
        CountAColumn,
        CountBColumn,
        TotalAColumn,
        TotalBColumn,
        DeltaColumn,
        MeanAColumn,
        MeanBColumn,
        RatioColumn,
        ColumnCount
    };
    explicit KernelDiffModel(QObject* parent = nullptr);
    void setRows(std::vector<KernelDiffRow> rows);

protected:
    QVariant extraData(const KernelDiffRow& row, int column, int role) const override;
};

} // namespace cnp::wb
