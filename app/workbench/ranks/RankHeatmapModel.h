#pragma once
// The Ranks page's rank x step heatmap: one row per rank (in the order setRowOrder() gives, e.g. the
// summary table's sort), one column per step, the cell holding the selected figure of RankStepGrid
// (computed by the analysis core; this model only presents it). The step's straggler is marked "●".
// Roles: DisplayRole the marker, ForegroundRole its colour (stragglerColor(): what it means, most compute,
// never the heat scale's ink), BackgroundRole the heat colour (sequential, min..max of the figure over
// the grid), ToolTipRole the exact figures, ValueRole the figure in ns (qint64), StragglerRole a bool.
#include "metrics/RankStepGrid.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace cnp::wb {

class RankHeatmapModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { ValueRole = Qt::UserRole + 1, StragglerRole, RankRole };
    explicit RankHeatmapModel(QObject* parent = nullptr);

    void setGrid(RankStepGrid grid);
    const RankStepGrid& grid() const { return grid_; }
    void setFigure(RankStepFigure f);
    RankStepFigure figure() const { return figure_; }
    // Ends of the colour scale: the figure's min and max over the grid (ns).
    Ns minValue() const { return min_; }
    Ns maxValue() const { return max_; }
    // Row r shows grid rank index order[r]; `order` must be a permutation of 0..ranks-1.
    void setRowOrder(std::vector<std::size_t> order);
    // The grid's rank index and step index of a cell.
    std::size_t rankIndexAt(int row) const { return order_[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // White -> deep orange as `t` goes 0 -> 1 (readable with the blue straggler marker on top).
    static QColor heat(double t);
    // The straggler marker's colour: the compute category's (the straggler is the rank with the most
    // compute), blue, which stands out from every shade of the orange scale.
    static QColor stragglerColor();

private:
    void updateRange();
    QString tooltip(std::size_t rank, std::size_t step) const;

    RankStepGrid grid_;
    RankStepFigure figure_ = RankStepFigure::StepTime;
    std::vector<std::size_t> order_;
    Ns min_ = 0, max_ = 0;
};

} // namespace cnp::wb
