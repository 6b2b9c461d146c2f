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

RankSummaryModel::RankSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankSummaryModel::setGrid(const RankStepGrid& grid) {
    beginResetModel();
    ranks_ = grid.ranks;
    rows_.assign(grid.ranks.size(), {});
    max_.fill(0);
    for (std::size_t r = 0; r < grid.ranks.size(); ++r) {
        auto& row = rows_[r];
        row[RankColumn] = grid.ranks[r];
        for (int c = StepTimeColumn; c <= IdleColumn; ++c)
            row[static_cast<std::size_t>(c)] = grid.rankMean(figureOf(c), r);
        row[StragglerColumn] = grid.stragglerCount(r);
        for (std::size_t c = 0; c < ColumnCount; ++c)
            max_[c] = std::max(max_[c], row[c]);
    }
    endResetModel();
}

double RankSummaryModel::figure(std::size_t rank, int column) const {
    return rows_[rank][static_cast<std::size_t>(column)];
}

int RankSummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RankSummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankSummaryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto r = static_cast<std::size_t>(index.row());
    const int c = index.column();
    const double v = rows_[r][static_cast<std::size_t>(c)];
    switch (role) {
    case Qt::DisplayRole:
        if (c == RankColumn || c == StragglerColumn)
            return QString::number(static_cast<qint64>(v));
        return UnitFormat::duration(v);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case SortRole:
        return v;
    case BarRole:
        return c == RankColumn || max_[static_cast<std::size_t>(c)] <= 0
                   ? QVariant()
                   : QVariant(v / max_[static_cast<std::size_t>(c)]);
    case RankIndexRole:
        return static_cast<qulonglong>(r);
    default:
        return {};
    }
}

QVariant RankSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const char* titles[] = {"Rank", "Mean step", "Compute", "Exposed comm", "Idle", "Straggler steps"};
    static const char* tips[] = {"Global rank",
                                 "Mean GPU step window of the rank",
                                 "Mean compute time per step (kernels other than communication and memory)",
                                 "Mean communication not hidden behind compute, per step",
                                 "Mean time per step with no GPU activity",
                                 "Steps in which this rank had the most compute (the others waited for it)"};
    if (role == Qt::DisplayRole)
        return tr(titles[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace cnp::wb
