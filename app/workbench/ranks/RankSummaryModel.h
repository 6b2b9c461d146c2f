#pragma once
// The Ranks page's per-rank summary: mean step time, compute, exposed communication and idle over the
// run's steps, and how many steps the rank was the straggler of (all from RankStepGrid, the analysis
// core's figures). Sortable by any column through SortRole (numbers, not text); BarRole gives each
// figure as a fraction of the column's largest value for the bar delegate.
#include "metrics/RankStepGrid.h"

#include "RowTableModel.h"

#include <array>
#include <vector>

namespace cnp::wb {

// One rank's figures, indexed by RankSummaryModel::Column (ns; the rank and straggler columns: counts).
struct RankSummaryRow {
    std::size_t rankIndex = 0; // the rank's index in the grid
    std::array<double, 6> figures{};
};

class RankSummaryModel : public RowTableModel<RankSummaryRow> {
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
    static_assert(ColumnCount == std::tuple_size_v<decltype(RankSummaryRow::figures)>);
    enum Role { SortRole = Qt::UserRole + 1, BarRole, RankIndexRole };
    explicit RankSummaryModel(QObject* parent = nullptr);

    void setGrid(const RankStepGrid& grid);
    // Mean of the column's figure for grid rank index r (ns; the straggler column: a count).
    double figure(std::size_t rank, int column) const;

protected:
    QVariant extraData(const RankSummaryRow& row, int column, int role) const override;

private:
    std::array<double, ColumnCount> max_{};
};

} // namespace cnp::wb
