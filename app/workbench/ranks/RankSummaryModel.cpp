#include "RankSummaryModel.h"

#include "UnitFormat.h"

#include <algorithm>

namespace cnp::wb {
namespace {

RankStepFigure figureOf(int column) {
    switch (column) {
    case RankSummaryModel::ComputeColumn:
        return RankStepFigure::Compute;
    case RankSummaryModel::ExposedCommColumn:
        return RankStepFigure::ExposedCommunication;
    case RankSummaryModel::IdleColumn:
        return RankStepFigure::Idle;
    default:
        return RankStepFigure::StepTime;
    }
}

} // namespace

RankSummaryModel::RankSummaryModel(QObject* parent) : RowTableModel(parent, SortRole) {
    using R = const RankSummaryRow&;
    auto column = [](int c, const char* title, const char* tip) {
        const bool count = c == RankColumn || c == StragglerColumn;
        ColumnSpec col{tr(title),
                       [c, count](R r) {
                           const double v = r.figures[static_cast<std::size_t>(c)];
                           return QVariant(count ? UnitFormat::integer(static_cast<qint64>(v))
                                                 : UnitFormat::duration(v));
                       },
                       kNumberAlignment,
                       [c](R r) { return QVariant(r.figures[static_cast<std::size_t>(c)]); }};
        col.headerTooltip = tr(tip);
        return col;
    };
    setColumns(
        {column(RankColumn, "Rank", "Global rank"),
         column(StepTimeColumn, "Mean step", "Mean GPU step window of the rank"),
         column(ComputeColumn, "Compute",
                "Mean compute time per step (kernels other than communication and memory)"),
         column(ExposedCommColumn, "Exposed comm", "Mean communication not hidden behind compute, per step"),
         column(IdleColumn, "Idle", "Mean time per step with no GPU activity"),
         column(StragglerColumn, "Straggler steps",
                "Steps in which this rank had the most compute (the others waited for it)")},
        ColumnCount);
}

void RankSummaryModel::setGrid(const RankStepGrid& grid) {
    std::vector<RankSummaryRow> rows(grid.ranks.size());
    max_.fill(0);
    for (std::size_t r = 0; r < grid.ranks.size(); ++r) {
        auto& row = rows[r].figures;
        rows[r].rankIndex = r;
        row[RankColumn] = grid.ranks[r];
        for (int c = StepTimeColumn; c <= IdleColumn; ++c)
            row[static_cast<std::size_t>(c)] = grid.rankMean(figureOf(c), r);
        row[StragglerColumn] = grid.stragglerCount(r);
        for (std::size_t c = 0; c < ColumnCount; ++c)
            max_[c] = std::max(max_[c], row[c]);
    }
    setRowsReset(std::move(rows));
}

double RankSummaryModel::figure(std::size_t rank, int column) const {
    return rows()[rank].figures[static_cast<std::size_t>(column)];
}

QVariant RankSummaryModel::extraData(const RankSummaryRow& row, int column, int role) const {
    const auto c = static_cast<std::size_t>(column);
    if (role == BarRole)
        return column == RankColumn || max_[c] <= 0 ? QVariant() : QVariant(row.figures[c] / max_[c]);
    if (role == RankIndexRole)
        return static_cast<qulonglong>(row.rankIndex);
    return {};
}

} // namespace cnp::wb
