#pragma once
// Kernel statistics (RunSummaryReader::kernelStats: the cuda_gpu_kern_sum columns) as a table. Display
// text uses readable units; Qt::UserRole holds the raw number (ns, count, percent) that the proxy sorts
// by. toCsv() writes rows with raw ns values.
#include "metrics/RunSummaryReader.h"

#include <QAbstractTableModel>

#include <vector>

namespace cnp::wb {

class KernelStatsModel : public QAbstractTableModel {
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
    const std::vector<KernelStatRow>& rows() const { return rows_; }

    // Header line + one line per row (RFC 4180 quoting), times in ns.
    static QString toCsv(const std::vector<const KernelStatRow*>& rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<KernelStatRow> rows_;
};

} // namespace cnp::wb
