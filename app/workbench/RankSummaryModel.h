#pragma once
// The Ranks page's per-rank summary: mean step time, compute, exposed communication and idle over the
// run's steps, and how many steps the rank was the straggler of (all from RankStepGrid, the analysis
// core's figures). Sortable by any column through SortRole (numbers, not text); BarRole gives each
// figure as a fraction of the column's largest value for the bar delegate.
#include "metrics/RankStepGrid.h"

#include <QAbstractTableModel>

#include <array>
#include <vector>

namespace cnp::wb {

class RankSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn = 0,
        StepTimeColumn,
        ComputeColumn,
        ExposedCommColumn,
        IdleColumn,
        StragglerColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, BarRole, RankIndexRole };
    explicit RankSummaryModel(QObject* parent = nullptr);

    void setGrid(const RankStepGrid& grid);
    // Mean of the column's figure for grid rank index r (ns; the straggler column: a count).
    double figure(std::size_t rank, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<std::int32_t> ranks_;
    std::vector<std::array<double, ColumnCount>> rows_;
    std::array<double, ColumnCount> max_{};
};

} // namespace cnp::wb
