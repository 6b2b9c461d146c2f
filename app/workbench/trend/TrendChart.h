#pragma once
// One configuration x metric of a release history as a chart (the Trend page): each release that has
// the figure as a point with its 95% CI as an error bar, joined by a thin line in release order; each
// E-divisive change point as a dashed vertical line before the first release of the new segment,
// labelled with the shift of the segment means ("+5.1%"); the selected release ringed. Release names
// are the x axis's labels (elided by ChartView, never rotated); when they do not fit side by side only
// every k-th is drawn (the full name stays in each point's tooltip). Step times are drawn in the unit
// UnitFormat::scaleFor picks, MFU in percent.
#include "ChartView.h"
#include "metrics/ReleaseTrend.h"

#include <QStringList>

namespace cnp::wb {

class TrendChart : public ChartView {
    Q_OBJECT
public:
    explicit TrendChart(QWidget* parent = nullptr);
    // Draws `series`; `selected` is the highlighted release's index (-1: none).
    void setSeries(const TrendSeries& series, int selected = -1);
    void setSelectedRelease(int index);
    void clearSeries(const QString& message);
    int selectedRelease() const { return selected_; }
    // What is drawn, for tests: the change points' labels in release order, the plotted values (in the
    // axis unit: ns / scale, throughput, MFU %) and the error bars' lower / upper ends.
    QStringList changeLabels() const { return changeLabels_; }
    QVector<double> plottedValues() const;
    QVector<double> plottedLows() const;
    QVector<double> plottedHighs() const;
    // The factor from the series' unit to the axis unit (1 / ns per axis unit, 1, or 100 for MFU).
    double axisScale() const { return scale_; }
    // Every k-th release label is drawn (1: all).
    int labelStride() const { return stride_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void drawSeries();
    void drawChangePoints(double top);
    void updateLabels();
    int strideFor(int width) const;

    TrendSeries series_;
    bool hasSeries_ = false;
    int selected_ = -1;
    int stride_ = 1;
    double scale_ = 1;
    QStringList changeLabels_;
    QCPGraph* graph_ = nullptr;
    QCPErrorBars* errors_ = nullptr;
};

} // namespace cnp::wb
