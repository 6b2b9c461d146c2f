#include "ChartView.h"

#include "ChartPalette.h"

#include <QApplication>
#include <QFileDialog>
#include <QMenu>
#include <QSvgGenerator>
#include <QToolTip>

namespace cnp::wb {

ChartView::ChartView(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(240, 180);
    setNoAntialiasingOnDrag(true);
    setMouseTracking(true);
    setAntialiasedElements(QCP::aeAll);
    applyTheme();
}

QFont ChartView::tickFont() {
    QFont f = QApplication::font();
    f.setPointSizeF(std::max(8.0, f.pointSizeF() * 0.95));
    return f;
}

QFont ChartView::labelFont() {
    QFont f = QApplication::font();
    f.setPointSizeF(std::max(9.0, f.pointSizeF()));
    return f;
}

void ChartView::themeAxisRect(QCPAxisRect* rect) {
    const QPalette& p = palette();
    const QColor text = ChartPalette::textColor(p);
    const QColor grid = ChartPalette::gridColor(p);
    for (QCPAxis* a : rect->axes()) {
        a->setBasePen(QPen(text, 1));
        a->setTickPen(QPen(text, 1));
        a->setSubTickPen(QPen(text, 1));
        a->setLabelColor(text);
        a->setTickLabelColor(text);
        a->setTickLabelFont(tickFont());
        a->setLabelFont(labelFont());
        a->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        a->grid()->setZeroLinePen(QPen(grid, 1));
    }
}

void ChartView::applyTheme() {
    const QPalette& p = palette();
    setBackground(QBrush(ChartPalette::backgroundColor(p)));
    for (QCPAxisRect* r : axisRects()) {
        r->setBackground(Qt::NoBrush);
        themeAxisRect(r);
    }
    legend->setBrush(QBrush(ChartPalette::backgroundColor(p)));
    legend->setBorderPen(QPen(ChartPalette::gridColor(p)));
    legend->setTextColor(ChartPalette::textColor(p));
    legend->setFont(tickFont());
    if (title_)
        title_->setTextColor(ChartPalette::textColor(p));
}

void ChartView::setTitle(const QString& title) {
    if (!title_) {
        plotLayout()->insertRow(0);
        QFont f = labelFont();
        f.setBold(true);
        title_ = new QCPTextElement(this, title, f);
        title_->setTextColor(ChartPalette::textColor(palette()));
        plotLayout()->addElement(0, 0, title_);
    }
    title_->setText(title);
}

void ChartView::changeEvent(QEvent* e) {
    QCustomPlot::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyTheme();
        replot();
    }
}

QString ChartView::tooltipAt(const QPointF& pos) const {
    int index = -1;
    QCPAbstractPlottable* p = plottableAt(pos, false, &index);
    if (!p || index < 0)
        return {};
    if (tooltip_)
        return tooltip_(p, index);
    return p->property("cnpTooltips").toStringList().value(index);
}

void ChartView::setPointTooltips(QCPAbstractPlottable* plottable, const QStringList& lines) {
    plottable->setProperty("cnpTooltips", lines);
}

void ChartView::setLabelTicks(QCPAxis* axis, const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    qsizetype longest = 0;
    for (int i = 0; i < labels.size(); ++i) {
        ticker->addTick(i, labels[i]);
        longest = std::max(longest, labels[i].size());
    }
    axis->setTicker(ticker);
    axis->setSubTicks(false);
    axis->setTickLength(0, 4);
    // Negative rotation anchors each label's end at its tick, so no label runs past the right edge.
    axis->setTickLabelRotation(longest * labels.size() > 48 ? -25 : 0);
    axis->setRange(-0.6, labels.size() - 0.4);
}

void ChartView::placeLegendBelow(int columns) {
    if (legend->layout() != plotLayout()) {
        if (auto* inset = axisRect()->insetLayout(); inset->elements(false).contains(legend))
            inset->take(legend);
        plotLayout()->addElement(plotLayout()->rowCount(), 0, legend);
        plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
    }
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setIconSize(14, 10);
    legend->setVisible(true);
}

void ChartView::clearChart() {
    clearPlottables();
    clearItems();
    clearGraphs();
}

void ChartView::mouseMoveEvent(QMouseEvent* e) {
    QCustomPlot::mouseMoveEvent(e);
    const QString text = tooltipAt(e->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
}

bool ChartView::exportTo(const QString& path, int width, int height) {
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".png")))
        return savePng(path, width, height, 2.0);
    if (lower.endsWith(QLatin1String(".pdf")))
        return savePdf(path, width, height);
    if (lower.endsWith(QLatin1String(".svg"))) {
        const int w = width > 0 ? width : this->width();
        const int h = height > 0 ? height : this->height();
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(QSize(w, h));
        gen.setViewBox(QRect(0, 0, w, h));
        gen.setTitle(QStringLiteral("CNP Workbench chart"));
        QCPPainter painter;
        if (!painter.begin(&gen))
            return false;
        toPainter(&painter, w, h);
        painter.end();
        return true;
    }
    return false;
}

void ChartView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    auto exportAs = [this](const QString& filter, const QString& suffix) {
        QString path =
            QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("chart.") + suffix, filter);
        if (path.isEmpty())
            return;
        if (!path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive))
            path += QLatin1Char('.') + suffix;
        if (!exportTo(path))
            QMessageBox::warning(this, tr("Export chart"), tr("%1: could not write the chart").arg(path));
    };
    menu.addAction(tr("Export as PNG…"), this,
                   [=]() { exportAs(tr("PNG image (*.png)"), QStringLiteral("png")); });
    menu.addAction(tr("Export as SVG…"), this,
                   [=]() { exportAs(tr("SVG drawing (*.svg)"), QStringLiteral("svg")); });
    menu.addAction(tr("Export as PDF…"), this,
                   [=]() { exportAs(tr("PDF document (*.pdf)"), QStringLiteral("pdf")); });
    menu.addSeparator();
    menu.addAction(tr("Reset zoom"), this, [this]() {
        rescaleAxes();
        replot();
    });
    menu.exec(e->globalPos());
}

} // namespace cnp::wb
