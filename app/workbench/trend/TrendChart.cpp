#include "TrendChart.h"

#include "ChartPalette.h"
#include "TrendTableModel.h"
#include "UnitFormat.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cnp::wb {

TrendChart::TrendChart(QWidget* parent) : ChartView(parent) {
    setObjectName(QStringLiteral("trendChart"));
    legend->setVisible(false);
}

void TrendChart::setSeries(const TrendSeries& series, int selected) {
    series_ = series;
    hasSeries_ = true;
    selected_ = selected;
    drawSeries();
}

void TrendChart::setSelectedRelease(int index) {
    selected_ = index;
    if (hasSeries_)
        drawSeries();
}

void TrendChart::clearSeries(const QString& message) {
    hasSeries_ = false;
    series_ = {};
    changeLabels_.clear();
    clearChart();
    graph_ = nullptr;
    errors_ = nullptr;
    setTitle(message);
    setLabelTicks(xAxis, {});
    replot();
}

QVector<double> TrendChart::plottedValues() const {
    QVector<double> out;
    if (graph_)
        for (auto it = graph_->data()->constBegin(); it != graph_->data()->constEnd(); ++it)
            out << it->value;
    return out;
}

QVector<double> TrendChart::plottedLows() const {
    QVector<double> out;
    if (graph_ && errors_)
        for (int i = 0; i < errors_->dataCount(); ++i)
            out << graph_->data()->at(i)->value - errors_->data()->at(i).errorMinus;
    return out;
}

QVector<double> TrendChart::plottedHighs() const {
    QVector<double> out;
    if (graph_ && errors_)
        for (int i = 0; i < errors_->dataCount(); ++i)
            out << graph_->data()->at(i)->value + errors_->data()->at(i).errorPlus;
    return out;
}

int TrendChart::strideFor(int width) const {
    const QFontMetrics fm(xAxis->tickLabelFont());
    int widest = 0;
    for (const TrendPoint& p : series_.points)
        widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(p.release)));
    const int n = static_cast<int>(series_.points.size());
    const int room = std::max(40, width - 90); // less the value axis and margins
    const int needed = n * (widest + 12);
    return needed <= room ? 1 : (needed + room - 1) / room;
}

void TrendChart::updateLabels() {
    QStringList labels, names;
    for (std::size_t i = 0; i < series_.points.size(); ++i) {
        const QString name = QString::fromStdString(series_.points[i].release);
        names << name;
        labels << (static_cast<int>(i) % stride_ == 0 ? name : QString());
    }
    setLabelTicks(xAxis, labels, names);
}

void TrendChart::resizeEvent(QResizeEvent* e) {
    ChartView::resizeEvent(e);
    if (hasSeries_ && strideFor(width()) != stride_) {
        stride_ = strideFor(width());
        updateLabels();
        replot(rpQueuedReplot);
    }
}

void TrendChart::drawChangePoints(double top) {
    const QColor red = ChartPalette::negativeDeltaColor();
    for (const ChangePoint& c : series_.changes) {
        const double x = static_cast<double>(c.index) - 0.5;
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(red, 1.5, Qt::DashLine));
        const double shift = c.meanBefore > 0 ? c.meanAfter / c.meanBefore - 1 : 0;
        const QString text = TrendTableModel::signedPercent(shift);
        changeLabels_ << text;
        auto* label = new QCPItemText(this);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(x, top);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
        label->setText(text);
        label->setColor(red);
        label->setBrush(QBrush(ChartPalette::backgroundColor(palette())));
        label->setPadding(QMargins(2, 1, 2, 1));
    }
}

void TrendChart::drawSeries() {
    clearChart();
    changeLabels_.clear();
    const QString metric = QString::fromStdString(series_.metric);
    const QString unit = QString::fromStdString(series_.unit);
    double maxHi = 0;
    for (const TrendPoint& p : series_.points)
        if (p.present)
            maxHi = std::max(maxHi, p.hi);
    QString axisLabel;
    if (metric == QLatin1String("step_time")) {
        const TimeScale ts = UnitFormat::scaleFor(maxHi);
        scale_ = 1 / ts.nsPerUnit;
        axisLabel = tr("median step time (%1)").arg(ts.suffix);
    } else if (metric == QLatin1String("throughput")) {
        scale_ = 1;
        axisLabel = tr("throughput (%1)").arg(unit);
    } else {
        scale_ = 100;
        axisLabel = tr("MFU (%)");
    }
    setTitle(
        tr("%1 — %2 per release, 95% CI, change points").arg(QString::fromStdString(series_.config), metric));
    yAxis->setLabel(axisLabel);
    graph_ = addGraph();
    graph_->setPen(QPen(ChartPalette::runAColor(), 1.5));
    graph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, ChartPalette::runAColor(), ChartPalette::runAColor(), 7));
    QVector<double> keys, values, minus, plus;
    QStringList tips;
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    for (std::size_t i = 0; i < series_.points.size(); ++i) {
        const TrendPoint& p = series_.points[i];
        if (!p.present)
            continue;
        keys << static_cast<double>(i);
        values << p.value * scale_;
        minus << std::max(0.0, (p.value - p.lo) * scale_);
        plus << std::max(0.0, (p.hi - p.value) * scale_);
        lo = std::min(lo, p.lo * scale_);
        hi = std::max(hi, p.hi * scale_);
        tips << QStringLiteral("%1: %2 [%3, %4]")
                    .arg(QString::fromStdString(p.release), TrendTableModel::valueText(metric, unit, p.value),
                         TrendTableModel::valueText(metric, unit, p.lo),
                         TrendTableModel::valueText(metric, unit, p.hi));
    }
    graph_->setData(keys, values, true);
    ChartView::setPointTooltips(graph_, tips);
    errors_ = new QCPErrorBars(xAxis, yAxis);
    errors_->setDataPlottable(graph_);
    errors_->setData(minus, plus);
    errors_->setPen(QPen(ChartPalette::textColor(palette()), 1.2));
    errors_->setWhiskerWidth(8);
    errors_->removeFromLegend();
    if (keys.isEmpty()) {
        lo = 0;
        hi = 1;
    }
    // The data's own range (a 5% shift must show), with room above for the change points' labels.
    const double span = hi > lo ? hi - lo : std::max(std::abs(hi) * 0.05, 1e-9);
    const double top = hi + span * 0.30;
    yAxis->setRange(std::max(0.0, lo - span * 0.15), top);
    if (selected_ >= 0 && selected_ < static_cast<int>(series_.points.size()) &&
        series_.points[static_cast<std::size_t>(selected_)].present) {
        QCPGraph* ring = addGraph();
        ring->setLineStyle(QCPGraph::lsNone);
        ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                              QPen(ChartPalette::textColor(palette()), 2), Qt::NoBrush, 16));
        ring->setData({double(selected_)},
                      {series_.points[static_cast<std::size_t>(selected_)].value * scale_});
        ring->setSelectable(QCP::stNone);
    }
    drawChangePoints(top);
    stride_ = strideFor(width());
    updateLabels();
    replot();
}

} // namespace cnp::wb
