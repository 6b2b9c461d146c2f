#pragma once
// A QCustomPlot with the workbench's conventions: colours/fonts from the application palette (light and
// dark), a tooltip with the exact value of the bar or point under the cursor (supplied per chart by a
// TooltipProvider), and a context menu exporting the chart to PNG, SVG or PDF. QCustomPlot scales its
// buffers by the screen's device-pixel ratio, so charts stay sharp on 4K screens.
// Layout invariants, kept at every size (checked by tests/workbench/tst_pagelayout): category labels
// and the title are elided in the middle to the room they have (full text in the tooltip), never
// rotated or overlapping; a legend sits in its own row beneath the axis rect, never over the data, and
// re-flows its columns to the chart's width. After each replot the view re-fits labels and legend to
// the new geometry and replots once more if anything changed.
#include <qcustomplot.h>

#include <functional>

namespace cnp::wb {

class ChartView : public QCustomPlot {
    Q_OBJECT
public:
    // Text for the data point `dataIndex` of `plottable`; empty = no tooltip.
    using TooltipProvider = std::function<QString(QCPAbstractPlottable* plottable, int dataIndex)>;

    explicit ChartView(QWidget* parent = nullptr);
    void setTooltipProvider(TooltipProvider provider) { tooltip_ = std::move(provider); }
    // The tooltip text at `pos` (widget coordinates); empty when nothing is under it. Public for tests.
    QString tooltipAt(const QPointF& pos) const;
    // Writes the chart to `path`; the format follows the suffix (.png, .svg, .pdf). False on failure.
    bool exportTo(const QString& path, int width = 0, int height = 0);
    // Sets axis, grid, legend and background colours from the current palette (called on palette change).
    void applyTheme();
    // A title element above the axis rect (created on first use).
    void setTitle(const QString& title);
    // The title as given, and as drawn: whole, on two lines when one is too narrow, else elided.
    QString fullTitle() const { return fullTitle_; }
    QString shownTitle() const;
    // `title` fitted to `width` px: one line, two lines broken at a space, else elided in the middle.
    static QString fittedTitle(const QFontMetrics& fm, const QString& title, int width);
    // Applies the theme to an axis rect added after construction (multi-rect layouts).
    void themeAxisRect(QCPAxisRect* rect);
    // Moves the legend out of the plot into a row beneath it; its columns follow the chart's width.
    void placeLegendBelow();
    // Tooltip lines for the data points of `plottable` in key order (used when no provider is set).
    static void setPointTooltips(QCPAbstractPlottable* plottable, const QStringList& lines);
    // Text ticks 0..n-1 on `axis` (a label may hold '\n' line breaks); elided to fit, never rotated.
    // `tooltips`: the full text of a label that abbreviates (empty = the label).
    static void setLabelTicks(QCPAxis* axis, const QStringList& labels, const QStringList& tooltips = {});
    // A value label over the category at its key ("1.17× (too few steps)"): drawn whole while it fits
    // the category's width, else as `brief` ("1.17×"), so labels of neighbouring bars never overlap.
    // The qualifier stays in the bar's tooltip and the page's warnings.
    static void setFittedText(QCPItemText* item, const QString& whole, const QString& brief);
    // Removes everything drawn (plottables, items, extra legend rows) but keeps axes and the title.
    void clearChart();
    // Default fonts for this chart (tick labels and axis labels, in points).
    static QFont tickFont();
    static QFont labelFont();

protected:
    void mouseMoveEvent(QMouseEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    // Re-elides category labels and the title and re-flows the legend for the current geometry;
    // true when something changed (the chart then needs another replot).
    bool fitToGeometry();
    bool fitLabels(QCPAxis* axis);
    bool fitNumberTicks(QCPAxis* axis);
    bool fitLegend();
    bool fitValueLabels();
    QString axisLabelTooltip(const QPointF& pos) const;

    TooltipProvider tooltip_;
    QCPTextElement* title_ = nullptr;
    QString fullTitle_;
};

} // namespace cnp::wb
