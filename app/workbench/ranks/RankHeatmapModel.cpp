#include "RankHeatmapModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cnp::wb {

RankHeatmapModel::RankHeatmapModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankHeatmapModel::setGrid(RankStepGrid grid) {
    beginResetModel();
    grid_ = std::move(grid);
    order_.resize(grid_.ranks.size());
    std::iota(order_.begin(), order_.end(), std::size_t(0));
    updateRange();
    endResetModel();
}

void RankHeatmapModel::setFigure(RankStepFigure f) {
    figure_ = f;
    updateRange();
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void RankHeatmapModel::setRowOrder(std::vector<std::size_t> order) {
    if (order.size() != order_.size())
        return;
    emit layoutAboutToBeChanged();
    // Persistent indexes follow their rank.
    const QModelIndexList before = persistentIndexList();
    std::vector<int> rowOfRank(order.size());
    for (std::size_t r = 0; r < order.size(); ++r)
        rowOfRank[order[r]] = static_cast<int>(r);
    QModelIndexList after;
    for (const QModelIndex& i : before)
        after.push_back(index(rowOfRank[order_[static_cast<std::size_t>(i.row())]], i.column()));
    order_ = std::move(order);
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

void RankHeatmapModel::updateRange() {
    const auto& v = grid_.values[static_cast<std::size_t>(figure_)];
    if (v.empty()) {
        min_ = max_ = 0;
        return;
    }
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    min_ = *lo;
    max_ = *hi;
}

int RankHeatmapModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(grid_.ranks.size());
}

int RankHeatmapModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(grid_.steps.size());
}

QColor RankHeatmapModel::heat(double t) {
    t = std::clamp(t, 0.0, 1.0);
    // Linear in RGB from #fff7ec to #d94701 (ColorBrewer Oranges' ends).
    auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return QColor(mix(0xff, 0xd9), mix(0xf7, 0x47), mix(0xec, 0x01));
}

QColor RankHeatmapModel::stragglerColor() {
    return ChartPalette::categoryColor(QStringLiteral("compute"));
}

QString RankHeatmapModel::tooltip(std::size_t rank, std::size_t step) const {
    QString s = tr("rank %1 · step %2").arg(grid_.ranks[rank]).arg(grid_.steps[step]);
    for (std::size_t f = 0; f < kRankStepFigureCount; ++f)
        s += QStringLiteral("\n%1: %2")
                 .arg(QString::fromLatin1(toString(RankStepFigure(f))),
                      UnitFormat::duration(static_cast<double>(grid_.value(RankStepFigure(f), rank, step))));
    if (grid_.stragglerRank[step] == grid_.ranks[rank])
        s += tr("\n● straggler of this step (most compute: the other ranks wait for it)");
    return s + tr("\nclick: show on the timeline");
}

QVariant RankHeatmapModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const std::size_t rank = order_[static_cast<std::size_t>(index.row())];
    const auto step = static_cast<std::size_t>(index.column());
    const bool straggler = grid_.stragglerRank[step] == grid_.ranks[rank];
    const Ns v = grid_.value(figure_, rank, step);
    switch (role) {
    case Qt::DisplayRole:
        return straggler ? QStringLiteral("●") : QString();
    case Qt::BackgroundRole:
        return heat(max_ > min_ ? static_cast<double>(v - min_) / static_cast<double>(max_ - min_) : 0.0);
    case Qt::ForegroundRole:
        // The dot says "most compute" whatever figure the cells show: in the compute colour, so on the
        // Idle or Exposed communication figure (where the straggler, which waits least, has the lightest
        // cell) it does not read as "this cell is slow" (issue 32.10: it read backwards in black).
        return straggler ? stragglerColor() : QColor(Qt::black);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case Qt::ToolTipRole:
        return tooltip(rank, step);
    case ValueRole:
        return qint64(v);
    case StragglerRole:
        return straggler;
    case RankRole:
        return grid_.ranks[rank];
    default:
        return {};
    }
}

QVariant RankHeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount())
            return {};
        return role == Qt::ToolTipRole ? tr("step %1").arg(grid_.steps[static_cast<std::size_t>(section)])
                                       : QVariant(grid_.steps[static_cast<std::size_t>(section)]);
    }
    if (section < 0 || section >= rowCount())
        return {};
    const int rank = grid_.ranks[order_[static_cast<std::size_t>(section)]];
    return role == Qt::ToolTipRole ? tr("rank %1").arg(rank) : QStringLiteral("%1").arg(rank);
}

} // namespace cnp::wb
