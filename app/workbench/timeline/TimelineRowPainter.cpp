#include "timeline/TimelineRowPainter.h"

#include "timeline/TimelinePalette.h"

#include <QPaintDevice>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace cnp::wb {

using namespace cnp::timeline;

int TimelineRowPainter::paint(QPainter& p, const TimelineFrame& f) {
    const QRect& area = f.rows;
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
    const Key key{f.axis.start(), f.axis.span(), area.width(), f.generation, dpr, p.font()};
    if (!(key == key_)) {
        if (key.generation != key_.generation)
            nameCache_.clear();
        pictures_.clear();
        key_ = key;
    }
    // The rows in view, and the lanes of those without a picture: their draw lists are built up front
    // (in parallel where cores allow), in the order the loop below renders them.
    const auto first = f.firstVisible();
    auto inView = [&](auto it) { return it != f.layout->end() && it->y - f.scroll < area.height(); };
    inView_.clear();
    staleLanes_.clear();
    for (auto it = first; inView(it); ++it) {
        if (it->isGroup)
            continue;
        inView_.push_back(it->index);
        const TimelineRow& row = f.model->rows[it->index];
        if (row.kind != RowKind::Counter && !pictures_.count(it->index))
            for (const EventTrack& lane : row.lanes)
                staleLanes_.push_back(&lane);
    }
    const LaneSpans& spans = spanJobs_.build(f.axis, staleLanes_, f.model);
    p.save();
    p.setClipRect(area);
    const QColor headerBg = f.palette.color(QPalette::Window);
    const QFontMetrics fm = p.fontMetrics();
    // Labels per pass are capped (each costs a text layout); rows render top to bottom, so the rows in
    // view first get theirs. Events stay drawn, and named in the tooltip, beyond the cap.
    LanePaint lanePaint{fm, fm.averageCharWidth() * 6, 400, f.palette.color(QPalette::Text)};
    std::size_t job = 0;
    int prims = 0;
    for (auto it = first; inView(it); ++it) {
        const int y = f.yOf(*it);
        if (it->isGroup) {
            p.fillRect(QRect(area.left(), y, area.width(), it->height), headerBg);
            continue;
        }
        auto pic = pictures_.find(it->index);
        if (pic == pictures_.end())
            pic = pictures_.emplace(it->index, renderRow(f, *it, lanePaint, spans, job, prims)).first;
        p.drawImage(QPoint(area.left(), y), pic->second);
    }
    p.restore();
    // Rows out of view give their pictures back: O(pictures x log rows in view).
    std::sort(inView_.begin(), inView_.end());
    std::erase_if(pictures_, [&](const auto& kv) {
        return !std::binary_search(inView_.begin(), inView_.end(), kv.first);
    });
    return prims;
}

QImage TimelineRowPainter::renderRow(const TimelineFrame& f, const LayoutItem& item, LanePaint& lp,
                                     const LaneSpans& spans, std::size_t& job, int& prims) {
    const QRect rect(0, 0, f.rows.width(), item.height);
    QImage img(rect.size() * key_.dpr, QImage::Format_RGB32); // opaque: blitted without blending
    img.setDevicePixelRatio(key_.dpr);
    img.fill(f.palette.color(QPalette::Base));
    QPainter p(&img);
    p.setFont(key_.font);
    p.setRenderHint(QPainter::Antialiasing, false);
    const TimelineRow& row = f.model->rows[item.index];
    if (item.index % 2)
        p.fillRect(rect, f.palette.color(QPalette::AlternateBase));
    drawStepBands(p, f, row, rect);
    if (row.kind == RowKind::Counter)
        drawCounter(p, f, row, item.height);
    else
        for (int l = 0; l < static_cast<int>(row.lanes.size()); ++l)
            prims += drawLane(p, f, lp, item.index, l, l * TimelineFrame::kLaneHeight, *spans[job++]);
    ++rowRenders_;
    return img;
}

// Step bands of the row's rank across `rowRect`: every other step shaded.
void TimelineRowPainter::drawStepBands(QPainter& p, const TimelineFrame& f, const TimelineRow& row,
                                       const QRect& rowRect) {
    const TimeAxis& axis = f.axis;
    QColor band = f.palette.color(QPalette::Highlight);
    band.setAlpha(18);
    for (const StepRange& s : f.model->steps) {
        if (s.rank != row.rank)
            continue;
        const Ns s0 = s.gpuStart >= 0 ? s.gpuStart : s.cpuStart, s1 = s.gpuStart >= 0 ? s.gpuEnd : s.cpuEnd;
        if (s1 <= axis.start() || s0 >= axis.end())
            continue;
        const int x0 = rowRect.left() + static_cast<int>(std::max(0.0, axis.x(s0)));
        const int x1 = rowRect.left() + static_cast<int>(std::min<double>(axis.width(), axis.x(s1)));
        if (s.index % 2 == 0)
            p.fillRect(QRect(x0, rowRect.top(), std::max(1, x1 - x0), rowRect.height()), band);
    }
}

// One lane of row `rowIndex` at picture y `ly` from its draw list. Returns the primitives drawn.
int TimelineRowPainter::drawLane(QPainter& p, const TimelineFrame& f, LanePaint& lp, int rowIndex, int l,
                                 int ly, const std::vector<DrawSpan>& spans) {
    constexpr int kLaneHeight = TimelineFrame::kLaneHeight;
    const int width = f.rows.width();
    if (laneImage_.width() != width || laneImage_.height() != kLaneHeight - 2)
        laneImage_ = QImage(width, kLaneHeight - 2, QImage::Format_ARGB32_Premultiplied);
    const EventTrack& lane = f.model->rows[rowIndex].lanes[l];
    const std::vector<QColor>& colors = *f.colors;
    int prims = 0;
    // Narrow and merged spans go into one row of pixels (premultiplied ARGB), repeated over the
    // lane's height and drawn as a single image: one primitive per lane instead of one per
    // column. Wide events get their own rectangle and, when there is room, their name.
    QRgb* line = reinterpret_cast<QRgb*>(laneImage_.scanLine(0));
    std::fill(line, line + width, 0u);
    bool anyPixels = false;
    for (const DrawSpan& s : spans) {
        const QColor& c = s.style < colors.size() ? colors[s.style] : lp.text;
        // Events too narrow for a label are pixels too: same look, one primitive per lane.
        const bool wide = !s.merged && s.x1 - s.x0 + 1 >= lp.minTextPx;
        if (!wide) {
            const int a = s.merged && s.coverage < 4 ? 80 + 44 * s.coverage : 255;
            const QRgb px = qPremultiply(qRgba(c.red(), c.green(), c.blue(), a));
            std::fill(line + s.x0, line + s.x1 + 1, px);
            anyPixels = true;
        } else {
            const QRect r(s.x0, ly + 1, s.x1 - s.x0 + 1, kLaneHeight - 2);
            // Its last column is left unpainted: a 1 px separator from a same-coloured neighbour.
            p.fillRect(r.adjusted(0, 0, -1, 0), c);
            ++prims;
            if (r.width() >= lp.minTextPx && lp.textBudget > 0) {
                --lp.textBudget;
                const QRect textRect = r.adjusted(3, 0, -3, 0);
                p.setPen(TimelinePalette::textOn(c));
                p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                           sliceLabel(nameText(*f.model, lane.name(s.first)), lp.fm, textRect.width()));
            }
        }
        if (f.search && f.search->anyMatchIn(rowIndex, l, s.first, s.count)) {
            const QColor mark = TimelinePalette::searchHighlight();
            p.fillRect(QRect(s.x0, ly, s.x1 - s.x0 + 1, 3), mark);
            p.fillRect(QRect(s.x0, ly + kLaneHeight - 3, s.x1 - s.x0 + 1, 3), mark);
            prims += 2;
        }
    }
    if (anyPixels) {
        // Unscaled, so the raster engine blends it on its fast path (a 1-pixel-high image
        // stretched to the lane took the per-pixel scaling path: most of a dense frame's time).
        for (int r = 1; r < laneImage_.height(); ++r)
            std::copy(line, line + width, reinterpret_cast<QRgb*>(laneImage_.scanLine(r)));
        p.drawImage(QPoint(0, ly + 1), laneImage_);
        ++prims;
    }
    return prims;
}

// A counter row `h` px high: per column, the largest value holding anywhere in it (a sample holds until
// the next one). O(width x log samples), scanning at most 64 samples per column.
void TimelineRowPainter::drawCounter(QPainter& p, const TimelineFrame& f, const TimelineRow& row, int h) {
    const CounterSeries& c = row.counter;
    if (c.ts.empty())
        return;
    const TimeAxis& axis = f.axis;
    const double base = std::min(0.0, c.minValue);
    const double denom = std::max(c.maxValue - base, 1e-12);
    QColor col = TimelinePalette::styleColor(QStringLiteral("memory"));
    col.setAlpha(150);
    for (int x = 0; x < axis.width(); ++x) {
        const Ns t0 = axis.firstTimeOfColumn(x), t1 = axis.firstTimeOfColumn(x + 1);
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
        const int top = h - 2 - static_cast<int>((v - base) / denom * (h - 4));
        p.fillRect(QRect(x, top, 1, std::max(1, h - 2 - top)), col);
    }
}

QString TimelineRowPainter::sliceLabel(const QString& name, const QFontMetrics& fm, int width) {
    if (width <= 0)
        return {};
    // Only the characters that can fit are shaped (kernel names run to hundreds of characters).
    const int fit = width / std::max(1, fm.averageCharWidth()) * 2 + 2;
    const QString text =
        fm.elidedText(name.size() > fit ? name.left(fit) + QChar(0x2026) : name, Qt::ElideRight, width);
    // A lone ellipsis says nothing: leave the slice unlabelled.
    return text == QString(QChar(0x2026)) ? QString() : text;
}

const QString& TimelineRowPainter::nameText(const TimelineModel& m, std::uint32_t name) {
    if (nameCache_.size() != m.names.size())
        nameCache_.assign(m.names.size(), QString());
    QString& s = nameCache_[name];
    if (s.isEmpty() && !m.names[name].empty())
        s = QString::fromStdString(m.names[name]);
    return s;
}

} // namespace cnp::wb
