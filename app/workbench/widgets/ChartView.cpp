#include "ChartView.h"

#include "ChartPalette.h"
#include "ElidingTextTicker.h"

#include <QApplication>
#include <QFileDialog>
#include <QFontMetrics>
#include <QMenu>
#include <QSvgGenerator>
#include <QToolTip>

#include <cmath>
#include <cstdlib>

namespace cnp::wb {

ChartView::ChartView(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(200, 180);
    setNoAntialiasingOnDrag(true);
    setMouseTracking(true);
    setAntialiasedElements(QCP::aeAll);
    applyTheme();
    // A replot lays the chart out; fitting labels to that layout may change it once more (a label's
    // line count changes the bottom margin), so re-fit and replot until nothing changes (1-2 rounds).
    connect(this, &QCustomPlot::afterReplot, this, [this]() {
        if (fitToGeometry())
            replot(rpQueuedReplot);
    });
}

bool ChartView::fitToGeometry() {
    bool changed = fitLegend();
    changed = fitValueLabels() || changed;
    for (QCPAxisRect* r : axisRects())
        for (QCPAxis* a : r->axes())
            changed = fitLabels(a) || changed;
    if (title_) {
        const QString shown =
            fittedTitle(QFontMetrics(title_->font()), fullTitle_, std::max(40, width() - 12));
        if (shown != title_->text()) {
            title_->setText(shown);
            changed = true;
        }
    }
    return changed;
}

QString ChartView::fittedTitle(const QFontMetrics& fm, const QString& title, int width) {
    if (fm.horizontalAdvance(title) <= width)
        return title;
    // Two lines, broken at the space nearest the middle ("Step times (box plot" / "+ each step)"), when
    // both then fit; else one line elided in the middle.
    qsizetype best = -1;
    for (qsizetype i = 1; i + 1 < title.size(); ++i)
        if (title[i] == QLatin1Char(' ') &&
            (best < 0 || std::abs(i - title.size() / 2) < std::abs(best - title.size() / 2)))
            best = i;
    if (best > 0) {
        const QString first = title.left(best), second = title.mid(best + 1);
        if (fm.horizontalAdvance(first) <= width && fm.horizontalAdvance(second) <= width)
            return first + QLatin1Char('\n') + second;
    }
    return fm.elidedText(title, Qt::ElideMiddle, width);
}

QString ChartView::shownTitle() const {
    return title_ ? title_->text() : QString();
}

bool ChartView::fitLabels(QCPAxis* axis) {
    auto* ticker = dynamic_cast<ElidingTextTicker*>(axis->ticker().data());
    if (!ticker)
        return fitNumberTicks(axis);
    if (ticker->count() == 0)
        return false;
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const double keys = std::max(1.0, axis->range().size());
    // Horizontal: each category owns its share of the axis rect (less a gap). Vertical: labels take at
    // most a third of the chart's width, the rest stays for the data.
    const int room = horizontal ? int(axis->axisRect()->width() / keys) - 6 : width() / 3;
    const int px = std::max(8, room); // at the least an ellipsis, never wider than its share
    bool changed = false;
    if (!horizontal) {
        // A vertical axis wraps a long label ("elementwise/" / "reduction") when each category's
        // height holds two or more lines, so it is not elided to "eleme…ction".
        const int lines = std::min(ElidingTextTicker::kMaxWrappedLines,
                                   int(axis->axisRect()->height() / keys) /
                                       QFontMetrics(axis->tickLabelFont()).lineSpacing());
        const bool wrap = lines >= 2;
        if (wrap != ticker->wrapsAtSeparators() || (wrap && lines != ticker->maxWrappedLines())) {
            ticker->setWrapAtSeparators(wrap, std::max(2, lines));
            changed = true;
        }
    }
    if (px == ticker->maxLabelWidth())
        return changed;
    ticker->setMaxLabelWidth(px);
    return true;
}

bool ChartView::fitNumberTicks(QCPAxis* axis) {
    // About one number per 70 px across and per 28 px down: labels never touch.
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const int length = horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
    const int count = std::clamp(length / (horizontal ? 70 : 28), 2, 5);
    if (axis->ticker()->tickCount() == count)
        return false;
    axis->ticker()->setTickCount(count);
    return true;
}

bool ChartView::fitLegend() {
    if (!legend->visible() || legend->layout() != plotLayout())
        return false;
    // itemCount() counts the grid's cells; a re-flowed grid has empty ones (null items).
    int widest = 0, items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            ++items;
        }
    if (items == 0)
        return false;
    const int spacing = legend->columnSpacing();
    const int usable = width() - legend->margins().left() - legend->margins().right() - 8;
    const int columns = std::clamp((usable + spacing) / std::max(1, widest + spacing), 1, items);
    if (columns == legend->wrap())
        return false;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    return true;
}

namespace {
const char* kWholeText = "cnpWholeText";
const char* kBriefText = "cnpBriefText";
} // namespace

void ChartView::setFittedText(QCPItemText* item, const QString& whole, const QString& brief) {
    item->setProperty(kWholeText, whole);
    item->setProperty(kBriefText, brief);
    item->setText(whole);
}

bool ChartView::fitValueLabels() {
    bool changed = false;
    for (int i = 0; i < itemCount(); ++i) {
        auto* t = qobject_cast<QCPItemText*>(item(i));
        if (!t || !t->property(kWholeText).isValid())
            continue;
        const QCPAxis* keys = t->position->keyAxis();
        if (!keys)
            continue;
        // One category is one key wide; keep a few px between neighbours.
        const double share = std::fabs(keys->coordToPixel(1.0) - keys->coordToPixel(0.0));
        const QString whole = t->property(kWholeText).toString();
        const int need =
            QFontMetrics(t->font()).horizontalAdvance(whole) + t->padding().left() + t->padding().right() + 6;
        const QString shown = need <= share ? whole : t->property(kBriefText).toString();
        if (shown != t->text()) {
            t->setText(shown);
            changed = true;
        }
    }
    return changed;
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
    fullTitle_ = title;
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
        return axisLabelTooltip(pos);
    if (tooltip_)
        return tooltip_(p, index);
    return p->property("cnpTooltips").toStringList().value(index);
}

QString ChartView::axisLabelTooltip(const QPointF& pos) const {
    for (QCPAxisRect* r : axisRects())
        for (QCPAxis* a : r->axes()) {
            auto* ticker = dynamic_cast<ElidingTextTicker*>(a->ticker().data());
            if (!ticker || a->getPartAt(pos) != QCPAxis::spTickLabels)
                continue;
            const double at = a->pixelToCoord(a->orientation() == Qt::Horizontal ? pos.x() : pos.y());
            return ticker->fullLabel(int(std::lround(at)));
        }
    if (title_ && title_->outerRect().contains(pos.toPoint()))
        return fullTitle_;
    return {};
}

void ChartView::setPointTooltips(QCPAbstractPlottable* plottable, const QStringList& lines) {
    plottable->setProperty("cnpTooltips", lines);
}

void ChartView::setLabelTicks(QCPAxis* axis, const QStringList& labels, const QStringList& tooltips) {
    auto* ticker = new ElidingTextTicker(labels, axis->tickLabelFont(), tooltips);
    ticker->setWrapAtSeparators(axis->orientation() == Qt::Horizontal);
    axis->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
    axis->setSubTicks(false);
    axis->setTickLength(0, 4);
    axis->setTickLabelRotation(0);
    axis->setRange(-0.6, static_cast<double>(labels.size()) - 0.4);
}

void ChartView::placeLegendBelow() {
    if (legend->layout() != plotLayout()) {
        if (auto* inset = axisRect()->insetLayout(); inset->elements(false).contains(legend))
            inset->take(legend);
        plotLayout()->addElement(plotLayout()->rowCount(), 0, legend);
        plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
    }
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    // 6 px below the border: the border and descenders stay clear of the widget edge, where they were
    // clipped by a few px with 2 (issue 15.2).
    legend->setMargins(QMargins(4, 2, 4, 6));
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
