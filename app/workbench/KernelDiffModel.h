#pragma once
// The kernel diff table of a RunDiffResult: name, category, class, count A/B, total A/B, delta, mean
// per call A/B and their ratio (KernelDiffRow's), in the analysis' order (|delta| descending). Qt::UserRole
// holds raw values (ns, counts, strings) for sorting and filtering.
#include "metrics/RunDiff.h"

#include <QAbstractTableModel>

namespace cnp::wb {

class KernelDiffModel : public QAbstractTableModel {
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
    const std::vector<KernelDiffRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<KernelDiffRow> rows_;
};

} // namespace cnp::wb
