#include "timeline/TimelineOverlayPainter.h"

#include "UnitFormat.h"
#include "core/Units.h"

#include <QObject>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace cnp::wb {

using namespace cnp::timeline;

namespace {

constexpr int kRulerHeight = TimelineFrame::kRulerHeight;
constexpr int kMinimapHeight = TimelineFrame::kMinimapHeight;
constexpr int kLaneHeight = TimelineFrame::kLaneHeight;

// Tick spacing of the ruler: the smallest 1-2-5 x 10^k ns step giving >= minPx between ticks.
Ns tickStep(const TimeAxis& ax, double minPx) {
    const double want = ax.nsPerPixel() * minPx;
    Ns step = 1;
    while (true) {
        for (Ns m : {1, 2, 5})
            if (static_cast<double>(step * m) >= want)
                return step * m;
        if (step > Ns(1) << 58)
            return step;
        step *= 10;
    }
}

} // namespace

void TimelineOverlayPainter::paint(QPainter& p, const TimelineFrame& f) {
    if (f.model) {
        p.save();
        p.setClipRect(f.rows);
        p.setRenderHint(QPainter::Antialiasing, false);
        drawCriticalPath(p, f);
        drawSelectionAndFlow(p, f);
        drawRangeSelection(p, f);
        p.restore();
        drawLabels(p, f);
        drawMinimap(p, f);
    }
    drawRuler(p, f);
    if (f.model && f.bookmarks && !f.bookmarks->empty())
        drawBookmarks(p, f);
    if (f.loading >= 0)
        drawLoading(p, f);
}

void TimelineOverlayPainter::drawLoading(QPainter& p, const TimelineFrame& f) {
    const QPalette& pal = f.palette;
    const QRect& area = f.rows;
    const QString text = (f.loadingText.isEmpty() ? QObject::tr("Loading events") : f.loadingText) +
                         QStringLiteral(" … ") + QString::fromStdString(units::percent(f.loading, 0));
    QRect box(area.center().x() - 170, area.top() + 40, 340, 44);
    p.fillRect(box, pal.color(QPalette::ToolTipBase));
    p.setPen(pal.color(QPalette::ToolTipText));
    p.drawRect(box.adjusted(0, 0, -1, -1));
    p.drawText(box.adjusted(8, 4, -8, -18), Qt::AlignCenter, text);
    p.fillRect(QRect(box.left() + 10, box.bottom() - 14, static_cast<int>(320 * f.loading), 8),
               pal.color(QPalette::Highlight));
}

void TimelineOverlayPainter::drawRuler(QPainter& p, const TimelineFrame& f) {
    const QPalette& pal = f.palette;
    const QRect r(0, 0, f.width, kRulerHeight);
    p.fillRect(r, pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, f.width, kRulerHeight - 1);
    p.setPen(pal.color(QPalette::WindowText));
    const QString corner =
        f.title.isEmpty() ? (f.model ? QString::fromStdString(f.model->runName) : QString()) : f.title;
    p.drawText(QRect(6, 0, f.labelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(corner, Qt::ElideRight, f.labelWidth - 12));
    if (!f.model)
        return;
    p.save();
    p.setClipRect(QRect(f.labelWidth, 0, f.axis.width(), kRulerHeight));
    for (const RulerTick& t : rulerTicks(f, p.fontMetrics())) {
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(t.x, kRulerHeight - 7, t.x, kRulerHeight - 1);
        if (t.label.isEmpty())
            continue;
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(t.labelRect, Qt::AlignLeft | Qt::AlignVCenter, t.label);
    }
    p.restore();
}

QColor TimelineOverlayPainter::bookmarkColor() {
    return QColor(0xd0, 0x1c, 0x8b);
}

int TimelineOverlayPainter::bookmarkX(const TimelineFrame& f, Ns time) {
    const double x = f.axis.x(time);
    if (x < -1 || x > f.axis.width() + 1)
        return -1;
    return f.labelWidth + static_cast<int>(std::floor(x));
}

void TimelineOverlayPainter::drawBookmarks(QPainter& p, const TimelineFrame& f) {
    p.save();
    const int left = f.labelWidth, right = f.labelWidth + f.axis.width();
    p.setClipRect(QRect(left, 0, f.axis.width(), f.height));
    const QColor c = bookmarkColor();
    const QFontMetrics fm = p.fontMetrics();
    int labelEnd = left; // labels never overlap: one starts right of the previous one's end
    for (const auto& b : *f.bookmarks) {
        const int x = bookmarkX(f, b.time);
        if (x < left || x >= right)
            continue;
        QColor line = c;
        line.setAlpha(110);
        p.setPen(QPen(line, 1, Qt::DashLine));
        p.drawLine(x, kRulerHeight, x, f.height);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        const QPoint flag[] = {{x, kRulerHeight - 1}, {x - 5, kRulerHeight - 9}, {x + 5, kRulerHeight - 9}};
        p.drawPolygon(flag, 3);
        const QString label = QString::fromStdString(b.label);
        if (label.isEmpty() || x + 7 < labelEnd)
            continue;
        const QString shown = fm.elidedText(label, Qt::ElideRight, std::min(160, right - x - 8));
        const QRect box(x + 7, 0, fm.horizontalAdvance(shown) + 6, kRulerHeight - 9);
        p.fillRect(box, f.palette.color(QPalette::Window));
        p.setPen(c);
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, shown);
        labelEnd = box.right() + 4;
    }
    p.restore();
}

std::vector<TimelineOverlayPainter::RulerTick> TimelineOverlayPainter::rulerTicks(const TimelineFrame& f,
                                                                                  const QFontMetrics& fm) {
    std::vector<RulerTick> ticks;
    if (!f.model)
        return ticks;
    const TimeAxis& axis = f.axis;
    const Ns origin = f.model->runStart;
    const Ns step = tickStep(axis, 90);
    const Ns magnitude = std::max(std::llabs(axis.start() - origin), std::llabs(axis.end() - origin));
    // First tick at a multiple of step relative to the run start.
    const Ns rel = axis.start() - origin;
    const Ns first = (rel >= 0 ? (rel + step - 1) / step : -((-rel) / step)) * step;
    const int right = f.labelWidth + axis.width();
    for (Ns t = first; origin + t < axis.end(); t += step) {
        RulerTick tick;
        tick.x = f.labelWidth + static_cast<int>(std::floor(axis.x(origin + t)));
        const QString label = rulerLabel(t, step, magnitude);
        const QRect box(tick.x + 3, 0, fm.horizontalAdvance(label) + 1, kRulerHeight - 4);
        if (box.right() < right) { // a label that would run past the edge is left out, not cut
            tick.label = label;
            tick.labelRect = box;
        }
        ticks.push_back(tick);
    }
    return ticks;
}

QString TimelineOverlayPainter::rulerLabel(Ns t, Ns step, Ns magnitude) {
    struct Unit {
        Ns ns;
        const char* suffix;
    };
    static const Unit units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "µs"}, {1, "ns"}};
    const Ns scale = std::max(magnitude, step);
    const Unit* u = &units[3];
    for (const Unit& c : units)
        if (scale >= c.ns) {
            u = &c;
            break;
        }
    // Decimals that resolve the step in this unit (steps are 1, 2 or 5 x 10^k ns).
    int decimals = 0;
    for (Ns q = u->ns; q > 1 && step % q != 0 && decimals < 6; q /= 10)
        ++decimals;
    return QString::number(static_cast<double>(t) / static_cast<double>(u->ns), 'f', decimals) +
           QString::fromUtf8(" ") + QString::fromUtf8(u->suffix);
}

void TimelineOverlayPainter::drawMinimap(QPainter& p, const TimelineFrame& f) {
    const QPalette& pal = f.palette;
    const TimelineModel& m = *f.model;
    const QRect area(f.labelWidth, kRulerHeight, f.axis.width(), kMinimapHeight);
    p.fillRect(QRect(0, kRulerHeight, f.width, kMinimapHeight), pal.color(QPalette::AlternateBase));
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, kRulerHeight, f.labelWidth - 12, kMinimapHeight), Qt::AlignVCenter | Qt::AlignLeft,
               QObject::tr("Overview (GPU busy)"));
    if (m.runEnd <= m.runStart)
        return;
    const TimeAxis whole(m.runStart, m.runEnd - m.runStart, area.width());
    if (minimap_.width() != area.width()) {
        // Busy fraction of every GPU stream lane per column over the whole run, computed once per
        // width from the same draw lists as the rows: O(GPU lanes x width x log n).
        std::vector<double> busy(area.width(), 0.0);
        int lanes = 0;
        std::vector<DrawSpan> spans;
        for (const auto& row : m.rows) {
            if (row.kind != RowKind::GpuStream)
                continue;
            for (const auto& lane : row.lanes) {
                ++lanes;
                spans.clear();
                lane.buildSpans(whole, spans);
                for (const auto& s : spans)
                    for (int c = s.x0; c <= s.x1; ++c)
                        busy[c] += s.coverage / 4.0;
            }
        }
        minimap_ = QImage(area.width(), kMinimapHeight, QImage::Format_ARGB32_Premultiplied);
        minimap_.fill(Qt::transparent);
        QPainter mp(&minimap_);
        const QColor c = pal.color(QPalette::Highlight);
        for (int x = 0; x < area.width(); ++x) {
            const double share = lanes ? std::min(1.0, busy[x] / std::max(1, std::min(lanes, 4))) : 0.0;
            const int h = static_cast<int>(std::ceil(share * (kMinimapHeight - 4)));
            if (h > 0)
                mp.fillRect(x, kMinimapHeight - 2 - h, 1, h, c);
        }
    }
    p.drawImage(area.topLeft(), minimap_);
    // The window in view.
    const int x0 = static_cast<int>(whole.x(f.axis.start())),
              x1 = static_cast<int>(std::ceil(whole.x(f.axis.end())));
    const QRect vr(area.left() + std::max(0, x0), area.top() + 1,
                   std::max(2, std::min(area.width(), x1) - std::max(0, x0)), kMinimapHeight - 3);
    QColor fill = pal.color(QPalette::Highlight);
    fill.setAlpha(50);
    p.fillRect(vr, fill);
    p.setPen(pal.color(QPalette::Highlight));
    p.drawRect(vr);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight + kMinimapHeight - 1, f.width, kRulerHeight + kMinimapHeight - 1);
}

// The selected event's outline, and the flow arrow from a launching call to its GPU activity.
QColor TimelineOverlayPainter::criticalPathColor() {
    return QColor(214, 40, 140);
}

void TimelineOverlayPainter::drawCriticalPath(QPainter& p, const TimelineFrame& f) {
    if (!f.pathMarks)
        return;
    const QRect& area = f.rows;
    const TimeAxis& axis = f.axis;
    const QColor c = criticalPathColor();
    QColor shade = c;
    shade.setAlpha(70);
    // x of time t, kept near the area so far-away marks stay drawable.
    auto xOf = [&](Ns t) {
        return area.left() + std::clamp(axis.x(t), -20.0, static_cast<double>(axis.width()) + 20.0);
    };
    QPolygonF line;
    auto flush = [&]() {
        if (line.size() > 1) {
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(QPen(c, 2));
            p.drawPolyline(line);
            p.setRenderHint(QPainter::Antialiasing, false);
        }
        line.clear();
    };
    for (const PathMark& m : *f.pathMarks) {
        const int y = m.row >= 0 ? f.laneY(m.row, m.lane) : -1;
        if (y < 0) { // a collapsed or absent row breaks the line
            flush();
            continue;
        }
        const double x0 = xOf(m.start), x1 = xOf(m.end);
        if (x1 >= area.left() - 10 && x0 <= area.right() + 10) {
            p.fillRect(QRectF(x0, y + 2, std::max(1.0, x1 - x0), kLaneHeight - 4), shade);
            if (m.event.valid() && f.laneY(m.event.row, m.event.lane) >= 0) {
                const EventTrack& tr = f.model->rows[m.event.row].lanes[m.event.lane];
                const double e0 = xOf(tr.start(m.event.index)), e1 = xOf(tr.effectiveEnd(m.event.index));
                p.setPen(QPen(c, 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(e0, y, std::max(2.0, e1 - e0), kLaneHeight - 1));
            }
        }
        const double mid = y + kLaneHeight / 2.0;
        line << QPointF(x0, mid) << QPointF(x1, mid);
    }
    flush();
}

void TimelineOverlayPainter::drawSelectionAndFlow(QPainter& p, const TimelineFrame& f) {
    const QRect& area = f.rows;
    const TimeAxis& axis = f.axis;
    auto outline = [&](const EventRef& ref, const QColor& c, int w) {
        if (!ref.valid() || f.laneY(ref.row, ref.lane) < 0)
            return;
        const EventTrack& tr = f.model->rows[ref.row].lanes[ref.lane];
        const double x0 = std::max(-10.0, axis.x(tr.start(ref.index)));
        const double x1 = std::min(axis.width() + 10.0, axis.x(tr.effectiveEnd(ref.index)));
        QRect r(area.left() + static_cast<int>(std::floor(x0)), f.laneY(ref.row, ref.lane),
                std::max(2, static_cast<int>(std::ceil(x1 - x0))), kLaneHeight);
        p.setPen(QPen(c, w));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, -1, -1));
    };
    outline(f.selected, f.palette.color(QPalette::Text), 2);
    const EventRef &from = f.flowFrom, &to = f.flowTo;
    if (!from.valid() || !to.valid() || f.laneY(from.row, from.lane) < 0 || f.laneY(to.row, to.lane) < 0)
        return;
    // Flow arrow: from the launching call's start to the GPU activity's start.
    const QColor flow(230, 120, 0);
    outline(from, flow, 2);
    auto startOf = [&](const EventRef& r) { return f.model->rows[r.row].lanes[r.lane].start(r.index); };
    const QPointF a(area.left() + axis.x(startOf(from)), f.laneY(from.row, from.lane) + kLaneHeight / 2.0);
    const QPointF b(area.left() + axis.x(startOf(to)), f.laneY(to.row, to.lane) + kLaneHeight / 2.0);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(flow, 2));
    p.drawLine(a, b);
    const double ang = std::atan2(b.y() - a.y(), b.x() - a.x());
    QPainterPath head;
    head.moveTo(b);
    head.lineTo(b - QPointF(10 * std::cos(ang - 0.4), 10 * std::sin(ang - 0.4)));
    head.lineTo(b - QPointF(10 * std::cos(ang + 0.4), 10 * std::sin(ang + 0.4)));
    head.closeSubpath();
    p.fillPath(head, flow);
    p.setRenderHint(QPainter::Antialiasing, false);
}

// The range selection: shaded across every row, its bounds dashed, its rank and length written.
void TimelineOverlayPainter::drawRangeSelection(QPainter& p, const TimelineFrame& f) {
    if (!f.rangeValid)
        return;
    const QPalette& pal = f.palette;
    const QRect& area = f.rows;
    const double x0 = std::max(-1.0, f.axis.x(f.rangeStart)),
                 x1 = std::min(f.axis.width() + 1.0, f.axis.x(f.rangeEnd));
    if (x1 <= 0 || x0 >= f.axis.width())
        return;
    QColor sh = pal.color(QPalette::Highlight);
    sh.setAlpha(45);
    const QRect r(area.left() + static_cast<int>(x0), area.top(), std::max(1, static_cast<int>(x1 - x0)),
                  area.height());
    p.fillRect(r, sh);
    p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DashLine));
    p.drawLine(r.topLeft(), r.bottomLeft());
    p.drawLine(r.topRight(), r.bottomRight());
    p.setPen(pal.color(QPalette::Text));
    p.drawText(r.adjusted(4, 2, 0, 0), Qt::AlignTop | Qt::AlignLeft,
               QStringLiteral("rank %1 · %2")
                   .arg(f.rangeRank)
                   .arg(UnitFormat::duration(static_cast<double>(f.rangeEnd - f.rangeStart))));
}

// The labels column: group headers (bold, with their collapse mark) and row labels, sticky at the left.
void TimelineOverlayPainter::drawLabels(QPainter& p, const TimelineFrame& f) {
    const QPalette& pal = f.palette;
    const int top = TimelineFrame::kRowsTop;
    const QRect col(0, top, f.labelWidth, f.height - top);
    p.save();
    p.setClipRect(col);
    p.fillRect(col, pal.color(QPalette::Window));
    const QFont regular = p.font();
    QFont bold = regular;
    bold.setBold(true);
    const QFontMetrics fm = p.fontMetrics(), boldFm(bold);
    for (auto it = f.firstVisible(); it != f.layout->end() && it->y - f.scroll < col.height(); ++it) {
        const int y = f.yOf(*it);
        const int indent = 8 + 14 * it->depth;
        p.setPen(pal.color(QPalette::WindowText));
        if (it->isGroup) {
            const TimelineGroup& g = f.model->groups[it->index];
            const QString mark = (*f.collapsed)[it->index] ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
            p.setFont(bold);
            p.drawText(QRect(indent - 6, y, f.labelWidth - indent, it->height),
                       Qt::AlignVCenter | Qt::AlignLeft,
                       boldFm.elidedText(mark + QString::fromStdString(g.label), Qt::ElideRight,
                                         f.labelWidth - indent));
            p.setFont(regular);
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(0, y + it->height - 1, f.labelWidth, y + it->height - 1);
            continue;
        }
        const TimelineRow& row = f.model->rows[it->index];
        QString label = QString::fromStdString(row.label);
        if (row.kind == RowKind::Counter && !row.counter.value.empty())
            label += QStringLiteral(" (max %1)").arg(row.counter.maxValue, 0, 'g', 4);
        p.drawText(QRect(indent, y, f.labelWidth - indent - 4, kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(label, Qt::ElideRight, f.labelWidth - indent - 4));
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(f.labelWidth - 1, top, f.labelWidth - 1, f.height);
    p.restore();
}

} // namespace cnp::wb
