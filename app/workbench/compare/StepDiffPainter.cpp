#include "StepDiffPainter.h"

#include "ChartPalette.h"
#include "TimelinePalette.h"
#include "UnitFormat.h"

#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cnp::wb {

namespace {

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QColor neutral(const QPalette& p) {
    return ChartPalette::isDark(p) ? QColor(0x7a, 0x7a, 0x7a) : QColor(0xb4, 0xb4, 0xb4);
}

// A tick step of 1, 2 or 5 × 10^k ns giving about one tick per 110 px.
double tickStep(double length, int width) {
    const double raw = length / std::max(1.0, width / 110.0);
    const double p10 = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p10 >= raw)
            return m * p10;
    return 10 * p10;
}

QString signedDuration(Ns v) {
    return (v > 0   ? QStringLiteral("+")
            : v < 0 ? QStringLiteral("−")
                    : QString()) +
           UnitFormat::duration(static_cast<double>(v < 0 ? -v : v));
}

QString streamText(std::int32_t device, std::int64_t stream) {
    return stream < 0 ? QStringLiteral("—") : QStringLiteral("%1:%2").arg(device).arg(stream);
}

} // namespace

QColor StepDiffPainter::matchedColor(Ns durationA, Ns durationB, const QPalette& palette) {
    const double a = static_cast<double>(std::max<Ns>(durationA, 1)),
                 b = static_cast<double>(std::max<Ns>(durationB, 1));
    const double t = std::clamp(std::log2(b / a) / 2.0, -1.0, 1.0); // ±1 at ×4
    return t >= 0 ? mix(neutral(palette), ChartPalette::negativeDeltaColor(), t)
                  : mix(neutral(palette), ChartPalette::positiveDeltaColor(), -t);
}
QColor StepDiffPainter::addedColor() {
    return QColor(0x2f, 0x7f, 0xd3);
}
QColor StepDiffPainter::removedColor() {
    return QColor(0xe0, 0x9a, 0x1f);
}

void StepDiffPainter::hatchedBox(const QRectF& r, const QColor& c, Qt::BrushStyle hatch) {
    QColor fill = c;
    fill.setAlpha(190);
    p_.fillRect(r, fill);
    if (r.width() >= 4)
        p_.fillRect(r, QBrush(c.darker(150), hatch));
}

void StepDiffPainter::legend() {
    const QColor text = ChartPalette::textColor(palette_);
    p_.setPen(text);
    const int h = StepDiffGeometry::kLegend, y = 5, box = h - 10;
    int x = 6;
    auto label = [&](const QString& t) {
        p_.setPen(text);
        const int w = p_.fontMetrics().horizontalAdvance(t);
        p_.drawText(QRect(x, 0, w + 2, h), Qt::AlignVCenter, t);
        x += w + 14;
    };
    label(tr("B faster"));
    x -= 10;
    QLinearGradient grad(x, 0, x + 90, 0);
    grad.setColorAt(0, ChartPalette::positiveDeltaColor());
    grad.setColorAt(0.5, neutral(palette_));
    grad.setColorAt(1, ChartPalette::negativeDeltaColor());
    p_.fillRect(QRect(x, y, 90, box), grad);
    x += 96;
    label(tr("slower (×4)"));
    hatchedBox(QRectF(x, y, 22, box), addedColor(), Qt::BDiagPattern);
    x += 26;
    label(tr("added"));
    hatchedBox(QRectF(x, y, 22, box), removedColor(), Qt::FDiagPattern);
    x += 26;
    label(tr("removed"));
    p_.setPen(QPen(TimelinePalette::searchHighlight(), 2));
    p_.drawRect(QRect(x, y, 22, box));
    x += 26;
    label(tr("selected"));
    label(tr("shift = B − A (up: B behind)"));
}

void StepDiffPainter::ruler(int height) {
    const int top = StepDiffGeometry::kLegend, h = StepDiffGeometry::kRuler;
    const double step = tickStep(g_.viewLength, g_.plotWidth());
    const QColor grid = ChartPalette::gridColor(palette_);
    p_.setPen(ChartPalette::textColor(palette_));
    p_.drawText(QRect(4, top, StepDiffGeometry::kLabel - 8, h), Qt::AlignVCenter | Qt::AlignRight,
                tr("from step start"));
    for (double t = std::ceil(g_.viewStart / step) * step; t <= g_.viewStart + g_.viewLength; t += step) {
        const double x = g_.xOf(t);
        p_.setPen(grid);
        p_.drawLine(QPointF(x, top + h - 5), QPointF(x, height));
        p_.setPen(ChartPalette::textColor(palette_));
        p_.drawText(QRectF(x + 3, top, 100, h), Qt::AlignVCenter | Qt::AlignLeft, UnitFormat::duration(t));
    }
    p_.setPen(grid);
    p_.drawLine(StepDiffGeometry::kLabel, top + h - 1, g_.width, top + h - 1);
}

void StepDiffPainter::labels(const AlignedStream& l, int top) {
    using G = StepDiffGeometry;
    const QColor text = ChartPalette::textColor(palette_);
    p_.setPen(text);
    QFont bold = p_.font();
    bold.setBold(true);
    p_.save();
    p_.setFont(bold);
    const QString pairing =
        l.pairedById ? tr("same stream")
                     : (l.streamA >= 0 && l.streamB >= 0 ? tr("paired by first use") : tr("one side only"));
    p_.drawText(QRect(6, top, g_.width - 12, G::kHeader), Qt::AlignVCenter | Qt::AlignLeft,
                tr("stream %1 → %2 (%3) · %4 matched, %5 added, %6 removed · end shift %7%8")
                    .arg(streamText(l.deviceA, l.streamA), streamText(l.deviceB, l.streamB), pairing)
                    .arg(UnitFormat::integer(l.matched), UnitFormat::integer(l.added),
                         UnitFormat::integer(l.removed), signedDuration(l.endShift),
                         l.truncated ? tr(" · alignment truncated") : QString()));
    p_.restore();
    const int rows[] = {top + G::kHeader, top + G::kHeader + G::kRow, top + G::kHeader + 2 * G::kRow};
    const QString names[] = {tr("A  %1").arg(streamText(l.deviceA, l.streamA)),
                             tr("B  %1").arg(streamText(l.deviceB, l.streamB)), tr("shift")};
    for (int i = 0; i < 3; ++i)
        p_.drawText(QRect(10, rows[i], G::kLabel - 16, i == 2 ? G::kCurve : G::kRow),
                    Qt::AlignVCenter | Qt::AlignLeft, names[i]);
}

std::size_t StepDiffPainter::items(const StepAlignment& s, const AlignedStream& l,
                                   const std::vector<char>& highlighted, bool sideB, int top) {
    using G = StepDiffGeometry;
    const double lo = g_.viewStart, hi = g_.viewStart + g_.viewLength;
    std::vector<QRectF> marks;
    std::size_t boxes = 0;
    // The last pixel column a box covers and its kind: a box of under a pixel of the same kind that starts
    // in that column adds nothing visible and is not drawn (a side's items come in time order), so a paint
    // draws about one box per column and kind, not one per item.
    long lastColumn = std::numeric_limits<long>::min();
    AlignKind lastKind = AlignKind::Matched;
    for (std::size_t k = 0; k < l.items.size(); ++k) {
        const AlignedItem& i = l.items[k];
        if (sideB ? i.b < 0 : i.a < 0)
            continue;
        const double start = static_cast<double>(sideB ? s.offsetB(i) : s.offsetA(i));
        const double end = start + static_cast<double>(sideB ? s.durationB(i) : s.durationA(i));
        if (end < lo || start > hi)
            continue;
        const double x0 = std::max<double>(G::kLabel, g_.xOf(start)), x1 = std::max(x0 + 1.0, g_.xOf(end));
        const bool marked = k < highlighted.size() && highlighted[k] != 0;
        if (!marked && x1 - x0 <= 1.0 && i.kind == lastKind && static_cast<long>(x0) <= lastColumn)
            continue;
        const QRectF r(x0, top + 2, x1 - x0, G::kRow - 4);
        if (i.kind == AlignKind::Matched)
            p_.fillRect(r, matchedColor(s.durationA(i), s.durationB(i), palette_));
        else
            hatchedBox(r, sideB ? addedColor() : removedColor(), sideB ? Qt::BDiagPattern : Qt::FDiagPattern);
        ++boxes;
        lastColumn = static_cast<long>(std::ceil(x1)) - 1;
        lastKind = i.kind;
        if (marked)
            marks.push_back(r.adjusted(-1, -2, 1, 2));
    }
    p_.setPen(QPen(TimelinePalette::searchHighlight(), 2));
    p_.setBrush(Qt::NoBrush);
    for (const auto& r : marks)
        p_.drawRect(r);
    return boxes;
}

namespace {

// A polyline (x nondecreasing) cut to at most four points per pixel column: the column's first, lowest,
// highest and last, in their order, which draws the same at that width (a step of 10^5 activities would
// otherwise hand QPainter a polygon "too complex for filling"). O(points).
QPolygonF perPixelColumn(const QPolygonF& pts) {
    QPolygonF out;
    for (qsizetype first = 0; first < pts.size();) {
        const auto column = static_cast<long>(std::floor(pts[first].x()));
        qsizetype last = first, low = first, high = first;
        for (; last + 1 < pts.size() && static_cast<long>(std::floor(pts[last + 1].x())) == column; ++last) {
            low = pts[last + 1].y() > pts[low].y() ? last + 1 : low; // y grows downwards
            high = pts[last + 1].y() < pts[high].y() ? last + 1 : high;
        }
        qsizetype kept[] = {first, low, high, last};
        std::sort(std::begin(kept), std::end(kept));
        for (std::size_t k = 0; k < 4; ++k)
            if (k == 0 || kept[k] != kept[k - 1])
                out << pts[kept[k]];
        first = last + 1;
    }
    return out;
}

} // namespace

void StepDiffPainter::shiftCurve(const AlignedStream& l, int top) {
    using G = StepDiffGeometry;
    const QRectF box(G::kLabel, top + 3, g_.plotWidth(), G::kCurve - 6);
    const double mid = box.center().y();
    Ns maxAbs = std::max<Ns>(1, l.endShift < 0 ? -l.endShift : l.endShift);
    for (const auto& pt : l.shift)
        maxAbs = std::max(maxAbs, pt.shift < 0 ? -pt.shift : pt.shift);
    const double scale = (box.height() / 2) / static_cast<double>(maxAbs);
    QPolygonF raw;
    raw.reserve(static_cast<qsizetype>(l.shift.size()) + 1);
    raw << QPointF(g_.xOf(0), mid);
    for (const auto& pt : l.shift)
        raw << QPointF(g_.xOf(static_cast<double>(pt.atA)), mid - static_cast<double>(pt.shift) * scale);
    const QPolygonF line = perPixelColumn(raw);
    const QColor grid = ChartPalette::gridColor(palette_);
    p_.setPen(grid);
    p_.drawLine(QPointF(box.left(), mid), QPointF(box.right(), mid));
    p_.save();
    p_.setClipRect(box);
    QPolygonF area = line;
    area << QPointF(line.back().x(), mid) << QPointF(line.front().x(), mid);
    const std::pair<QRectF, QColor> halves[] = {
        {QRectF(box.left(), box.top(), box.width(), mid - box.top()), ChartPalette::negativeDeltaColor()},
        {QRectF(box.left(), mid, box.width(), box.bottom() - mid), ChartPalette::positiveDeltaColor()}};
    for (const auto& [clip, colour] : halves) {
        p_.setClipRect(clip.intersected(box));
        QColor c = colour;
        c.setAlpha(90);
        p_.setPen(Qt::NoPen);
        p_.setBrush(c);
        p_.drawPolygon(area);
    }
    p_.setClipRect(box);
    p_.setPen(QPen(ChartPalette::textColor(palette_), 1.2));
    p_.setBrush(Qt::NoBrush);
    p_.drawPolyline(line);
    p_.restore();
    p_.setPen(ChartPalette::textColor(palette_));
    p_.drawText(QRectF(G::kLabel - 78, box.top() - 2, 74, 14), Qt::AlignRight | Qt::AlignTop,
                signedDuration(maxAbs));
    p_.drawText(QRectF(G::kLabel - 78, box.bottom() - 12, 74, 14), Qt::AlignRight | Qt::AlignBottom,
                signedDuration(-maxAbs));
}

std::size_t StepDiffPainter::lane(const StepAlignment& s, std::size_t index,
                                  const std::vector<char>& highlighted) {
    using G = StepDiffGeometry;
    const AlignedStream& l = s.streams[index];
    const int top = G::laneTop(static_cast<int>(index));
    labels(l, top);
    p_.save();
    p_.setClipRect(QRect(G::kLabel, top, g_.plotWidth(), G::laneHeight()));
    const std::size_t boxes = items(s, l, highlighted, false, top + G::kHeader) +
                              items(s, l, highlighted, true, top + G::kHeader + G::kRow);
    p_.restore();
    shiftCurve(l, top + G::kHeader + 2 * G::kRow);
    return boxes;
}

} // namespace cnp::wb
