// The painting half of TimelineView (Qt Creator's tracing painter split): one frame from the layout,
// the axis and the draw lists of SpanJobPool. Nothing here changes the view's state except the
// axis width, the paint caches (minimap, lane image, names) and the lane scratch lists.
#include "timeline/TimelineView.h"

#include "UnitFormat.h"
#include "core/Units.h"
#include "timeline/TimelinePalette.h"

#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace cnp::wb {

using namespace cnp::timeline;

namespace {

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

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintFrame(p);
}

int TimelineView::paintFrame(QPainter& p) {
    axis_.setWidth(rowsArea().width());
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    int prims = 0;
    if (model_) {
        prims = drawRows(p);
        drawLabels(p);
        drawMinimap(p);
    }
    drawRuler(p);
    if (loading_ >= 0) {
        const QRect area = rowsArea();
        const QString text = (loadingText_.isEmpty() ? tr("Loading events") : loadingText_) +
                             QStringLiteral(" … ") + QString::fromStdString(units::percent(loading_, 0));
        QRect box(area.center().x() - 170, area.top() + 40, 340, 44);
        p.fillRect(box, pal.color(QPalette::ToolTipBase));
        p.setPen(pal.color(QPalette::ToolTipText));
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.drawText(box.adjusted(8, 4, -8, -18), Qt::AlignCenter, text);
        p.fillRect(QRect(box.left() + 10, box.bottom() - 14, static_cast<int>(320 * loading_), 8),
                   pal.color(QPalette::Highlight));
    }
    return prims;
}

void TimelineView::drawRuler(QPainter& p) {
    const QPalette& pal = palette();
    const QRect r(0, 0, width(), kRulerHeight);
    p.fillRect(r, pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
    p.setPen(pal.color(QPalette::WindowText));
    const QString corner =
        title_.isEmpty() ? (model_ ? QString::fromStdString(model_->runName) : QString()) : title_;
    p.drawText(QRect(6, 0, labelWidth_ - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(corner, Qt::ElideRight, labelWidth_ - 12));
    if (!model_)
        return;
    p.save();
    p.setClipRect(QRect(labelWidth_, 0, axis_.width(), kRulerHeight));
    for (const RulerTick& t : rulerTicks(p.fontMetrics())) {
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(t.x, kRulerHeight - 7, t.x, kRulerHeight - 1);
        if (t.label.isEmpty())
            continue;
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(t.labelRect, Qt::AlignLeft | Qt::AlignVCenter, t.label);
    }
    p.restore();
}

std::vector<TimelineView::RulerTick> TimelineView::rulerTicks(const QFontMetrics& fm) const {
    std::vector<RulerTick> ticks;
    if (!model_)
        return ticks;
    const Ns origin = model_->runStart;
    const Ns step = tickStep(axis_, 90);
    const Ns magnitude = std::max(std::llabs(axis_.start() - origin), std::llabs(axis_.end() - origin));
    // First tick at a multiple of step relative to the run start.
    const Ns rel = axis_.start() - origin;
    const Ns first = (rel >= 0 ? (rel + step - 1) / step : -((-rel) / step)) * step;
    const int right = labelWidth_ + axis_.width();
    for (Ns t = first; origin + t < axis_.end(); t += step) {
        RulerTick tick;
        tick.x = labelWidth_ + static_cast<int>(std::floor(axis_.x(origin + t)));
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

QString TimelineView::rulerLabel(Ns t, Ns step, Ns magnitude) {
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

QString TimelineView::sliceLabel(const QString& name, const QFontMetrics& fm, int width) {
    if (width <= 0)
        return {};
    // Only the characters that can fit are shaped (kernel names run to hundreds of characters).
    const int fit = width / std::max(1, fm.averageCharWidth()) * 2 + 2;
    const QString text =
        fm.elidedText(name.size() > fit ? name.left(fit) + QChar(0x2026) : name, Qt::ElideRight, width);
    // A lone ellipsis says nothing: leave the slice unlabelled.
    return text == QString(QChar(0x2026)) ? QString() : text;
}

void TimelineView::drawMinimap(QPainter& p) {
    const QPalette& pal = palette();
    const QRect area(labelWidth_, kRulerHeight, axis_.width(), kMinimapHeight);
    p.fillRect(QRect(0, kRulerHeight, width(), kMinimapHeight), pal.color(QPalette::AlternateBase));
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, kRulerHeight, labelWidth_ - 12, kMinimapHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("Overview (GPU busy)"));
    if (model_->runEnd <= model_->runStart)
        return;
    if (minimapCache_.width() != area.width()) {
        // Busy fraction of every GPU stream lane per column over the whole run, computed once per
        // width from the same draw lists as the rows: O(GPU lanes x width x log n).
        const TimeAxis whole(model_->runStart, model_->runEnd - model_->runStart, area.width());
        std::vector<double> busy(area.width(), 0.0);
        int lanes = 0;
        std::vector<DrawSpan> spans;
        for (const auto& row : model_->rows) {
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
        minimapCache_ = QImage(area.width(), kMinimapHeight, QImage::Format_ARGB32_Premultiplied);
        minimapCache_.fill(Qt::transparent);
        QPainter mp(&minimapCache_);
        const QColor c = pal.color(QPalette::Highlight);
        for (int x = 0; x < area.width(); ++x) {
            const double f = lanes ? std::min(1.0, busy[x] / std::max(1, std::min(lanes, 4))) : 0.0;
            const int h = static_cast<int>(std::ceil(f * (kMinimapHeight - 4)));
            if (h > 0)
                mp.fillRect(x, kMinimapHeight - 2 - h, 1, h, c);
        }
    }
    p.drawImage(area.topLeft(), minimapCache_);
    // Current view.
    const TimeAxis whole(model_->runStart, model_->runEnd - model_->runStart, area.width());
    const int x0 = static_cast<int>(whole.x(axis_.start())),
              x1 = static_cast<int>(std::ceil(whole.x(axis_.end())));
    const QRect vr(area.left() + std::max(0, x0), area.top() + 1,
                   std::max(2, std::min(area.width(), x1) - std::max(0, x0)), kMinimapHeight - 3);
    QColor fill = pal.color(QPalette::Highlight);
    fill.setAlpha(50);
    p.fillRect(vr, fill);
    p.setPen(pal.color(QPalette::Highlight));
    p.drawRect(vr);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight + kMinimapHeight - 1, width(), kRulerHeight + kMinimapHeight - 1);
}

// Draws the rows in view (group headers, alternate shading, step bands, lanes or counters), then the
// selection, the flow arrow and the range selection on top. Returns the primitives drawn (benchmarks).
int TimelineView::drawRows(QPainter& p) {
    const QPalette& pal = palette();
    const QRect area = rowsArea();
    const int scroll = vbar_->value();
    const int top = rowsTop();
    int prims = 0;
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QColor alt = pal.color(QPalette::AlternateBase);
    const QColor headerBg = pal.color(QPalette::Window);
    const QFontMetrics fm = p.fontMetrics();
    // Labels per frame are capped (each costs a text layout); rows are drawn top to bottom, so the
    // rows in view first get theirs. Events stay drawn, and named in the tooltip, beyond the cap.
    LanePaint lanePaint{fm, fm.averageCharWidth() * 6, 400, pal.color(QPalette::Text), area};
    // Visible layout items: binary search on y.
    auto first = std::upper_bound(layout_.begin(), layout_.end(), scroll,
                                  [](int v, const LayoutItem& li) { return v < li.y + li.height; });
    // The draw lists of every lane in view, built up front (in parallel where cores allow), in the
    // order the loop below draws them.
    visibleLanes_.clear();
    for (auto it = first; it != layout_.end() && it->y - scroll < area.height(); ++it) {
        if (it->isGroup || model_->rows[it->index].kind == RowKind::Counter)
            continue;
        for (const EventTrack& lane : model_->rows[it->index].lanes)
            visibleLanes_.push_back(&lane);
    }
    const std::vector<const std::vector<DrawSpan>*>& laneSpans =
        spanJobs_.build(axis_, visibleLanes_, model_);
    std::size_t job = 0;
    if (laneImage_.width() != area.width() || laneImage_.height() != kLaneHeight - 2)
        laneImage_ = QImage(area.width(), kLaneHeight - 2, QImage::Format_ARGB32_Premultiplied);
    for (auto it = first; it != layout_.end() && it->y - scroll < area.height(); ++it) {
        const int y = top + it->y - scroll;
        if (it->isGroup) {
            p.fillRect(QRect(area.left(), y, area.width(), it->height), headerBg);
            continue;
        }
        const TimelineRow& row = model_->rows[it->index];
        if (it->index % 2)
            p.fillRect(QRect(area.left(), y, area.width(), it->height), alt);
        drawStepBands(p, row, QRect(area.left(), y, area.width(), it->height));
        if (row.kind == RowKind::Counter) {
            drawCounter(p, row, y, it->height);
            continue;
        }
        for (int l = 0; l < static_cast<int>(row.lanes.size()); ++l)
            prims += drawLane(p, lanePaint, it->index, l, y + l * kLaneHeight, *laneSpans[job++]);
    }
    drawSelectionAndFlow(p, area);
    drawRangeSelection(p, area);
    p.restore();
    return prims;
}

// Step bands of the row's rank across `rowRect`: every other step shaded.
void TimelineView::drawStepBands(QPainter& p, const TimelineRow& row, const QRect& rowRect) {
    QColor band = palette().color(QPalette::Highlight);
    band.setAlpha(18);
    for (const StepRange& s : model_->steps) {
        if (s.rank != row.rank)
            continue;
        const Ns s0 = s.gpuStart >= 0 ? s.gpuStart : s.cpuStart, s1 = s.gpuStart >= 0 ? s.gpuEnd : s.cpuEnd;
        if (s1 <= axis_.start() || s0 >= axis_.end())
            continue;
        const int x0 = rowRect.left() + static_cast<int>(std::max(0.0, axis_.x(s0)));
        const int x1 = rowRect.left() + static_cast<int>(std::min<double>(axis_.width(), axis_.x(s1)));
        if (s.index % 2 == 0)
            p.fillRect(QRect(x0, rowRect.top(), std::max(1, x1 - x0), rowRect.height()), band);
    }
}

// One lane of row `rowIndex` at y `ly` from its draw list. Returns the primitives drawn.
int TimelineView::drawLane(QPainter& p, LanePaint& lp, int rowIndex, int l, int ly,
                           const std::vector<DrawSpan>& spans) {
    const QRect& area = lp.area;
    const EventTrack& lane = model_->rows[rowIndex].lanes[l];
    const int minTextPx = lp.minTextPx;
    int prims = 0;
    // Narrow and merged spans go into one row of pixels (premultiplied ARGB), repeated over the
    // lane's height and drawn as a single image: one primitive per lane instead of one per
    // column. Wide events get their own rectangle and, when there is room, their name.
    QRgb* line = reinterpret_cast<QRgb*>(laneImage_.scanLine(0));
    std::fill(line, line + area.width(), 0u);
    bool anyPixels = false;
    for (const DrawSpan& s : spans) {
        const QColor& c = s.style < colors_.size() ? colors_[s.style] : lp.text;
        // Events too narrow for a label are pixels too: same look, one primitive per lane.
        const bool wide = !s.merged && s.x1 - s.x0 + 1 >= minTextPx;
        if (!wide) {
            const int a = s.merged && s.coverage < 4 ? 80 + 44 * s.coverage : 255;
            const QRgb px = qPremultiply(qRgba(c.red(), c.green(), c.blue(), a));
            std::fill(line + s.x0, line + s.x1 + 1, px);
            anyPixels = true;
        } else {
            const QRect r(area.left() + s.x0, ly + 1, s.x1 - s.x0 + 1, kLaneHeight - 2);
            // Its last column is left unpainted: a 1 px separator from a same-coloured neighbour.
            p.fillRect(r.adjusted(0, 0, -1, 0), c);
            ++prims;
            if (r.width() >= minTextPx && lp.textBudget > 0) {
                --lp.textBudget;
                const QRect textRect = r.adjusted(3, 0, -3, 0);
                p.setPen(TimelinePalette::textOn(c));
                p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                           sliceLabel(nameText(lane.name(s.first)), lp.fm, textRect.width()));
            }
        }
        if (search_ && search_->anyMatchIn(rowIndex, l, s.first, s.count)) {
            const QRect r(area.left() + s.x0, ly, s.x1 - s.x0 + 1, kLaneHeight);
            const QColor mark = TimelinePalette::searchHighlight();
            p.fillRect(QRect(r.left(), ly, r.width(), 3), mark);
            p.fillRect(QRect(r.left(), ly + kLaneHeight - 3, r.width(), 3), mark);
            prims += 2;
        }
    }
    if (anyPixels) {
        // Unscaled, so the raster engine blends it on its fast path (a 1-pixel-high image
        // stretched to the lane took the per-pixel scaling path: most of a dense frame's time).
        for (int r = 1; r < laneImage_.height(); ++r)
            std::copy(line, line + area.width(), reinterpret_cast<QRgb*>(laneImage_.scanLine(r)));
        p.drawImage(QPoint(area.left(), ly + 1), laneImage_);
        ++prims;
    }
    return prims;
}

// The selected event's outline, and the flow arrow from a launching call to its GPU activity.
void TimelineView::drawSelectionAndFlow(QPainter& p, const QRect& area) {
    const QPalette& pal = palette();
    auto outline = [&](const EventRef& ref, const QColor& c, int w) {
        if (!ref.valid() || laneY(ref.row, ref.lane) < 0)
            return;
        const EventTrack& tr = model_->rows[ref.row].lanes[ref.lane];
        const double x0 = std::max(-10.0, axis_.x(tr.start(ref.index)));
        const double x1 = std::min(axis_.width() + 10.0, axis_.x(tr.effectiveEnd(ref.index)));
        QRect r(area.left() + static_cast<int>(std::floor(x0)), laneY(ref.row, ref.lane),
                std::max(2, static_cast<int>(std::ceil(x1 - x0))), kLaneHeight);
        p.setPen(QPen(c, w));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, -1, -1));
    };
    outline(selected_, pal.color(QPalette::Text), 2);
    // Flow arrow: from the launching call's start to the GPU activity's start.
    if (flowFrom_.valid() && flowTo_.valid() && laneY(flowFrom_.row, flowFrom_.lane) >= 0 &&
        laneY(flowTo_.row, flowTo_.lane) >= 0) {
        outline(flowFrom_, QColor(230, 120, 0), 2);
        const QPointF a(area.left() + axis_.x(eventStart(flowFrom_)),
                        laneY(flowFrom_.row, flowFrom_.lane) + kLaneHeight / 2.0);
        const QPointF b(area.left() + axis_.x(eventStart(flowTo_)),
                        laneY(flowTo_.row, flowTo_.lane) + kLaneHeight / 2.0);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(QColor(230, 120, 0), 2));
        p.drawLine(a, b);
        const double ang = std::atan2(b.y() - a.y(), b.x() - a.x());
        QPainterPath head;
        head.moveTo(b);
        head.lineTo(b - QPointF(10 * std::cos(ang - 0.4), 10 * std::sin(ang - 0.4)));
        head.lineTo(b - QPointF(10 * std::cos(ang + 0.4), 10 * std::sin(ang + 0.4)));
        head.closeSubpath();
        p.fillPath(head, QColor(230, 120, 0));
        p.setRenderHint(QPainter::Antialiasing, false);
    }
}

// The range selection: shaded across every row, its bounds dashed, its rank and length written.
void TimelineView::drawRangeSelection(QPainter& p, const QRect& area) {
    const QPalette& pal = palette();
    if (rangeValid_) {
        const double x0 = std::max(-1.0, axis_.x(rangeStart_)),
                     x1 = std::min(axis_.width() + 1.0, axis_.x(rangeEnd_));
        if (x1 > 0 && x0 < axis_.width()) {
            QColor sh = pal.color(QPalette::Highlight);
            sh.setAlpha(45);
            const QRect r(area.left() + static_cast<int>(x0), area.top(),
                          std::max(1, static_cast<int>(x1 - x0)), area.height());
            p.fillRect(r, sh);
            p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DashLine));
            p.drawLine(r.topLeft(), r.bottomLeft());
            p.drawLine(r.topRight(), r.bottomRight());
            p.setPen(pal.color(QPalette::Text));
            p.drawText(r.adjusted(4, 2, 0, 0), Qt::AlignTop | Qt::AlignLeft,
                       QStringLiteral("rank %1 · %2")
                           .arg(rangeRank_)
                           .arg(UnitFormat::duration(static_cast<double>(rangeEnd_ - rangeStart_))));
        }
    }
}

void TimelineView::drawCounter(QPainter& p, const TimelineRow& row, int y, int h) {
    const CounterSeries& c = row.counter;
    if (c.ts.empty())
        return;
    const QRect area = rowsArea();
    const double base = std::min(0.0, c.minValue);
    const double denom = std::max(c.maxValue - base, 1e-12);
    QColor col = TimelinePalette::styleColor(QStringLiteral("memory"));
    col.setAlpha(150);
    // Per column: the largest value holding anywhere in it (a sample holds until the next one).
    // O(width x log samples), scanning at most 64 samples per column.
    for (int x = 0; x < axis_.width(); ++x) {
        const Ns t0 = axis_.firstTimeOfColumn(x), t1 = axis_.firstTimeOfColumn(x + 1);
        const auto last = std::lower_bound(c.ts.begin(), c.ts.end(), t1); // first sample at/after t1
        if (last == c.ts.begin())
            continue;
        const std::size_t j = static_cast<std::size_t>(last - c.ts.begin()) - 1;
        const auto holdIt = std::upper_bound(c.ts.begin(), c.ts.end(), t0);
        std::size_t k = holdIt == c.ts.begin() ? 0 : static_cast<std::size_t>(holdIt - c.ts.begin()) - 1;
        k = std::max(k, j >= 64 ? j - 64 : 0);
        double v = c.value[j];
        for (std::size_t q = k; q < j; ++q)
            v = std::max(v, c.value[q]);
        const int top = y + h - 2 - static_cast<int>((v - base) / denom * (h - 4));
        p.fillRect(QRect(area.left() + x, top, 1, std::max(1, y + h - 2 - top)), col);
    }
}

void TimelineView::drawLabels(QPainter& p) {
    const QPalette& pal = palette();
    const int top = rowsTop();
    const int scroll = vbar_->value();
    const QRect col(0, top, labelWidth_, height() - top);
    p.save();
    p.setClipRect(col);
    p.fillRect(col, pal.color(QPalette::Window));
    const QFontMetrics fm = p.fontMetrics();
    auto first = std::upper_bound(layout_.begin(), layout_.end(), scroll,
                                  [](int v, const LayoutItem& li) { return v < li.y + li.height; });
    for (auto it = first; it != layout_.end() && it->y - scroll < col.height(); ++it) {
        const int y = top + it->y - scroll;
        const int indent = 8 + 14 * it->depth;
        if (it->isGroup) {
            const TimelineGroup& g = model_->groups[it->index];
            QFont bold = p.font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(pal.color(QPalette::WindowText));
            const QString mark = collapsed_[it->index] ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
            p.drawText(QRect(indent - 6, y, labelWidth_ - indent, it->height),
                       Qt::AlignVCenter | Qt::AlignLeft,
                       QFontMetrics(bold).elidedText(mark + QString::fromStdString(g.label), Qt::ElideRight,
                                                     labelWidth_ - indent));
            p.setFont(QFont(bold.family(), bold.pointSize()));
            p.setFont(font());
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(0, y + it->height - 1, labelWidth_, y + it->height - 1);
            continue;
        }
        const TimelineRow& row = model_->rows[it->index];
        QString label = QString::fromStdString(row.label);
        if (row.kind == RowKind::Counter && !row.counter.value.empty())
            label += QStringLiteral(" (max %1)").arg(row.counter.maxValue, 0, 'g', 4);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(indent, y, labelWidth_ - indent - 4, kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(label, Qt::ElideRight, labelWidth_ - indent - 4));
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(labelWidth_ - 1, top, labelWidth_ - 1, height());
    p.restore();
}

const QString& TimelineView::nameText(std::uint32_t name) const {
    if (nameCache_.size() != model_->names.size())
        nameCache_.assign(model_->names.size(), QString());
    QString& s = nameCache_[name];
    if (s.isEmpty() && !model_->names[name].empty())
        s = QString::fromStdString(model_->names[name]);
    return s;
}

} // namespace cnp::wb
