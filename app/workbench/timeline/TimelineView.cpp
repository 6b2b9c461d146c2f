#include "timeline/TimelineView.h"

#include "UnitFormat.h"
#include "timeline/TimelinePalette.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRunnable>
#include <QScrollBar>
#include <QThread>
#include <QThreadPool>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

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

QString fmtDur(Ns ns) {
    return UnitFormat::duration(static_cast<double>(ns));
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), vbar_(new QScrollBar(Qt::Vertical, this)) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 150);
    connect(vbar_, &QScrollBar::valueChanged, this, [this]() { update(); });
    // Draw lists are built on the GUI thread plus up to 3 helpers (1 on a 2-core machine).
    const int helpers = std::min(QThread::idealThreadCount() - 1, 3);
    if (helpers > 0) {
        spanPool_ = new QThreadPool(this);
        spanPool_->setMaxThreadCount(helpers);
    }
}

void TimelineView::setModel(std::shared_ptr<const TimelineModel> model) {
    nameCache_.clear();
    // The full model replacing the overview of the same run keeps the view where the user put it.
    const bool sameRun =
        model_ && model && model_->runId == model->runId && model_->groups.size() == model->groups.size();
    const int scroll = vbar_->value();
    const std::vector<bool> keepCollapsed = collapsed_;
    model_ = std::move(model);
    collapsed_.assign(model_ ? model_->groups.size() : 0, false);
    if (model_)
        for (std::size_t g = 0; g < model_->groups.size(); ++g)
            collapsed_[g] = model_->groups[g].collapsed;
    if (sameRun) {
        collapsed_ = keepCollapsed;
        selected_ = flowFrom_ = flowTo_ = {}; // indices of the old model
        search_.reset();
        colors_ = TimelinePalette::forStyles(model_->styles);
        minimapCache_ = QImage();
        relayout();
        vbar_->setValue(scroll);
        return;
    }
    colors_ = model_ ? TimelinePalette::forStyles(model_->styles) : std::vector<QColor>{};
    selected_ = flowFrom_ = flowTo_ = {};
    rangeValid_ = false;
    search_.reset();
    minimapCache_ = QImage();
    relayout();
    fitAll();
}

void TimelineView::setLoadingProgress(double fraction, const QString& text) {
    loading_ = fraction;
    loadingText_ = text;
    update();
}

void TimelineView::setTitle(const QString& title) {
    title_ = title;
    update();
}

QRect TimelineView::rowsArea() const {
    return QRect(labelWidth_, rowsTop(), std::max(1, width() - labelWidth_ - vbar_->width()),
                 std::max(1, height() - rowsTop()));
}

void TimelineView::relayout() {
    layout_.clear();
    rowItem_.clear();
    contentHeight_ = 0;
    if (model_) {
        // The model is shared and immutable: collapse state lives here and is applied to a copy of the
        // group flags only for the layout computation.
        TimelineModel shell;
        shell.groups = model_->groups;
        for (std::size_t g = 0; g < shell.groups.size(); ++g)
            shell.groups[g].collapsed = collapsed_[g];
        shell.rows.reserve(model_->rows.size());
        for (const auto& r : model_->rows) {
            TimelineRow light;
            light.kind = r.kind;
            light.group = r.group;
            light.lanes.resize(r.lanes.size());
            shell.rows.push_back(std::move(light));
        }
        layout_ = shell.layout(kLaneHeight, kHeaderHeight);
        rowItem_.assign(model_->rows.size(), -1);
        for (std::size_t k = 0; k < layout_.size(); ++k)
            if (!layout_[k].isGroup)
                rowItem_[layout_[k].index] = static_cast<int>(k);
        if (!layout_.empty())
            contentHeight_ = layout_.back().y + layout_.back().height;
    }
    updateScrollBar();
    update();
}

void TimelineView::updateScrollBar() {
    const int viewH = std::max(1, height() - rowsTop());
    vbar_->setGeometry(width() - vbar_->sizeHint().width(), rowsTop(), vbar_->sizeHint().width(), viewH);
    vbar_->setRange(0, std::max(0, contentHeight_ - viewH));
    vbar_->setPageStep(viewH);
    vbar_->setSingleStep(kLaneHeight);
}

void TimelineView::resizeEvent(QResizeEvent*) {
    // Row labels take a fifth of a narrow view, at most 230 px: the events keep most of the width.
    labelWidth_ = std::clamp(width() / 5, 150, 230);
    axis_.setWidth(rowsArea().width());
    minimapCache_ = QImage();
    updateScrollBar();
}

void TimelineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange)
        minimapCache_ = QImage();
}

void TimelineView::setAxis(const TimeAxis& axis) {
    const int w = rowsArea().width();
    axis_ = axis;
    axis_.setWidth(w);
    update();
}

void TimelineView::fitAll() {
    axis_.setWidth(rowsArea().width());
    if (model_ && model_->runEnd > model_->runStart)
        zoomTo(model_->runStart, model_->runEnd);
    else
        update();
}

void TimelineView::zoomTo(Ns start, Ns end) {
    axis_.setWidth(rowsArea().width());
    const Ns margin = std::max<Ns>(1, (end - start) / 20);
    axis_.setWindow(start - margin, end + margin);
    update();
}

void TimelineView::scrollToRow(int row) {
    if (row < 0 || row >= static_cast<int>(rowItem_.size()))
        return;
    if (const int k = rowItem_[row]; k >= 0)
        vbar_->setValue(std::max(0, layout_[k].y - kHeaderHeight * 2));
}

void TimelineView::scrollToRank(std::int32_t rank) {
    if (!model_)
        return;
    for (std::size_t g = 0; g < model_->groups.size(); ++g)
        if (model_->groups[g].parent < 0 && model_->groups[g].rank == rank) {
            for (const auto& it : layout_)
                if (it.isGroup && it.index == static_cast<int>(g)) {
                    vbar_->setValue(it.y);
                    return;
                }
        }
}

void TimelineView::setCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= static_cast<int>(collapsed_.size()))
        return;
    collapsed_[group] = collapsed;
    relayout();
}

bool TimelineView::isCollapsed(int group) const {
    return group >= 0 && group < static_cast<int>(collapsed_.size()) && collapsed_[group];
}

void TimelineView::setSearch(std::shared_ptr<const TimelineSearch> search) {
    search_ = std::move(search);
    update();
}

void TimelineView::setSelected(const EventRef& ref) {
    selected_ = ref;
    update();
}

void TimelineView::setFlow(const EventRef& from, const EventRef& to) {
    flowFrom_ = from;
    flowTo_ = to;
    update();
}

void TimelineView::clearSelection() {
    selected_ = flowFrom_ = flowTo_ = {};
    rangeValid_ = false;
    update();
}

void TimelineView::setRange(std::int32_t rank, Ns start, Ns end) {
    rangeRank_ = rank;
    rangeStart_ = std::min(start, end);
    rangeEnd_ = std::max(start, end);
    rangeValid_ = rangeEnd_ > rangeStart_;
    update();
}

int TimelineView::laneY(int row, int lane) const {
    if (row < 0 || row >= static_cast<int>(rowItem_.size()) || rowItem_[row] < 0)
        return -1;
    return rowsTop() + layout_[rowItem_[row]].y - vbar_->value() + lane * kLaneHeight;
}

int TimelineView::rowAt(QPoint p) const {
    const int y = p.y() - rowsTop() + vbar_->value();
    if (p.y() < rowsTop())
        return -1;
    const auto it = std::upper_bound(layout_.begin(), layout_.end(), y,
                                     [](int v, const LayoutItem& li) { return v < li.y; });
    if (it == layout_.begin())
        return -1;
    const LayoutItem& li = *(it - 1);
    return (!li.isGroup && y < li.y + li.height) ? li.index : -1;
}

int TimelineView::groupHeaderAt(QPoint p) const {
    const int y = p.y() - rowsTop() + vbar_->value();
    if (p.y() < rowsTop())
        return -1;
    const auto it = std::upper_bound(layout_.begin(), layout_.end(), y,
                                     [](int v, const LayoutItem& li) { return v < li.y; });
    if (it == layout_.begin())
        return -1;
    const LayoutItem& li = *(it - 1);
    return (li.isGroup && y < li.y + li.height) ? li.index : -1;
}

EventRef TimelineView::eventAt(QPoint p) const {
    if (!model_ || p.x() < labelWidth_ || p.x() >= labelWidth_ + axis_.width())
        return {};
    const int row = rowAt(p);
    if (row < 0)
        return {};
    const int lane = (p.y() - laneY(row, 0)) / kLaneHeight;
    const TimelineRow& r = model_->rows[row];
    if (lane < 0 || lane >= static_cast<int>(r.lanes.size()))
        return {};
    const double x = p.x() - labelWidth_ + 0.5;
    const std::int64_t hit = r.lanes[lane].hitTest(axis_, p.x() - labelWidth_, axis_.timeAt(x));
    if (hit < 0)
        return {};
    return {row, lane, static_cast<std::uint32_t>(hit)};
}

Ns TimelineView::eventStart(const EventRef& r) const {
    return model_->rows[r.row].lanes[r.lane].start(r.index);
}
Ns TimelineView::eventEnd(const EventRef& r) const {
    return model_->rows[r.row].lanes[r.lane].end(r.index);
}

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
                             QStringLiteral(" … %1 %").arg(static_cast<int>(loading_ * 100));
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

// One frame's lanes and their draw lists, shared by the GUI thread and the helper threads. Lanes are
// handed out by `next` (each lane is built by exactly one thread into its own Lane); a lane's spans are
// published by its `done` flag (release / acquire). A helper that is still busy when the GUI thread has
// run out of lanes is not waited for: the GUI thread builds that lane again into retaken_, and the
// helper finishes into this object, which it keeps alive (with the model) through its own references.
struct TimelineView::SpanJobs {
    struct alignas(64) Lane { // one cache line per lane header: no false sharing between threads
        std::vector<DrawSpan> spans;
        std::atomic<bool> done{false};
    };
    TimeAxis axis;
    std::vector<const EventTrack*> tracks;
    std::unique_ptr<Lane[]> lanes;
    std::size_t capacity = 0;
    std::atomic<std::size_t> next{0};

    void work() {
        const std::size_t n = tracks.size();
        for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < n;
             k = next.fetch_add(1, std::memory_order_relaxed)) {
            lanes[k].spans.clear();
            tracks[k]->buildSpans(axis, lanes[k].spans);
            lanes[k].done.store(true, std::memory_order_release);
        }
    }
};

void TimelineView::buildLaneSpans(const std::vector<const EventTrack*>& tracks) {
    if (spanPool_)
        spanPool_->clear(); // helpers of earlier frames that never started (they hold their jobs)
    // Reuse last frame's jobs (and their allocations) unless a late helper still holds them.
    if (!spanJobs_ || spanJobs_.use_count() > 1)
        spanJobs_ = std::make_shared<SpanJobs>();
    else
        std::atomic_thread_fence(std::memory_order_acquire); // after the last helper's release of it
    SpanJobs& jobs = *spanJobs_;
    const std::size_t n = tracks.size();
    if (jobs.capacity < n) {
        jobs.lanes = std::make_unique<SpanJobs::Lane[]>(n);
        jobs.capacity = n;
    }
    jobs.axis = axis_;
    jobs.tracks = tracks;
    for (std::size_t k = 0; k < n; ++k)
        jobs.lanes[k].done.store(false, std::memory_order_relaxed);
    jobs.next.store(0, std::memory_order_relaxed);
    // Helpers pay off only when there is work to share: below ~16k events in view (estimated at each
    // lane's average density, O(lanes)) handing lanes out costs about as much as building them all.
    double expected = 0;
    for (const EventTrack* t : tracks)
        if (!t->empty())
            expected +=
                static_cast<double>(t->size()) *
                std::min(1.0, static_cast<double>(axis_.span()) /
                                  static_cast<double>(std::max<Ns>(1, t->lastEnd() - t->firstStart())));
    if (spanPool_ && n >= 2 && expected >= 16384) {
        const int helpers = std::min(spanPool_->maxThreadCount(), static_cast<int>(n) - 1);
        for (int h = 0; h < helpers; ++h)
            spanPool_->start(QRunnable::create([held = spanJobs_, model = model_]() {
                held->work(); // `model` keeps the lanes alive until this helper is done
            }));
    }
    jobs.work();
    laneSpans_.assign(n, nullptr);
    if (retaken_.size() < n)
        retaken_.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        if (jobs.lanes[k].done.load(std::memory_order_acquire)) {
            laneSpans_[k] = &jobs.lanes[k].spans;
        } else { // a helper is on it: build it here rather than wait
            retaken_[k].clear();
            tracks[k]->buildSpans(axis_, retaken_[k]);
            laneSpans_[k] = &retaken_[k];
        }
    }
}

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
    const QColor text = pal.color(QPalette::Text);
    QColor band = pal.color(QPalette::Highlight);
    band.setAlpha(18);
    const QFontMetrics fm = p.fontMetrics();
    const int charW = fm.averageCharWidth();
    const int minTextPx = charW * 6;
    // Labels per frame are capped (each costs a text layout); rows are drawn top to bottom, so the
    // rows in view first get theirs. Events stay drawn, and named in the tooltip, beyond the cap.
    int textBudget = 400;
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
    buildLaneSpans(visibleLanes_);
    std::size_t job = 0;
    if (laneImage_.width() != area.width() || laneImage_.height() != kLaneHeight - 2)
        laneImage_ = QImage(area.width(), kLaneHeight - 2, QImage::Format_ARGB32_Premultiplied);
    // Steps per rank, for the bands.
    for (auto it = first; it != layout_.end() && it->y - scroll < area.height(); ++it) {
        const int y = top + it->y - scroll;
        if (it->isGroup) {
            p.fillRect(QRect(area.left(), y, area.width(), it->height), headerBg);
            continue;
        }
        const TimelineRow& row = model_->rows[it->index];
        if (it->index % 2)
            p.fillRect(QRect(area.left(), y, area.width(), it->height), alt);
        // Step bands: every other step of the row's rank shaded, a line at each step start.
        for (const StepRange& s : model_->steps) {
            if (s.rank != row.rank)
                continue;
            const Ns s0 = s.gpuStart >= 0 ? s.gpuStart : s.cpuStart,
                     s1 = s.gpuStart >= 0 ? s.gpuEnd : s.cpuEnd;
            if (s1 <= axis_.start() || s0 >= axis_.end())
                continue;
            const int x0 = area.left() + static_cast<int>(std::max(0.0, axis_.x(s0)));
            const int x1 = area.left() + static_cast<int>(std::min<double>(axis_.width(), axis_.x(s1)));
            if (s.index % 2 == 0)
                p.fillRect(QRect(x0, y, std::max(1, x1 - x0), it->height), band);
        }
        if (row.kind == RowKind::Counter) {
            drawCounter(p, row, y, it->height);
            continue;
        }
        for (int l = 0; l < static_cast<int>(row.lanes.size()); ++l) {
            const int ly = y + l * kLaneHeight;
            const EventTrack& lane = row.lanes[l];
            const std::vector<DrawSpan>& spans = *laneSpans_[job++];
            // Narrow and merged spans go into one row of pixels (premultiplied ARGB), repeated over the
            // lane's height and drawn as a single image: one primitive per lane instead of one per
            // column. Wide events get their own rectangle and, when there is room, their name.
            QRgb* line = reinterpret_cast<QRgb*>(laneImage_.scanLine(0));
            std::fill(line, line + area.width(), 0u);
            bool anyPixels = false;
            for (const DrawSpan& s : spans) {
                const QColor& c = s.style < colors_.size() ? colors_[s.style] : text;
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
                    if (r.width() >= minTextPx && textBudget > 0) {
                        --textBudget;
                        const QRect textRect = r.adjusted(3, 0, -3, 0);
                        p.setPen(TimelinePalette::textOn(c));
                        p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                                   sliceLabel(nameText(lane.name(s.first)), fm, textRect.width()));
                    }
                }
                if (search_ && search_->anyMatchIn(it->index, l, s.first, s.count)) {
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
        }
    }
    // Selection outline.
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
    // Range selection: shaded across every row, outlined on the chosen rank's rows.
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
                       QStringLiteral("rank %1 · %2").arg(rangeRank_).arg(fmtDur(rangeEnd_ - rangeStart_)));
        }
    }
    p.restore();
    return prims;
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

QString TimelineView::tooltipAt(QPoint pos) const {
    const EventRef ref = eventAt(pos);
    if (!ref.valid())
        return {};
    const TimelineRow& row = model_->rows[ref.row];
    const EventTrack& tr = row.lanes[ref.lane];
    const std::int64_t column = pos.x() - labelWidth_;
    const std::size_t lo = tr.firstEndingAfter(axis_.firstTimeOfColumn(column));
    const std::size_t hi = tr.firstStartingAtOrAfter(axis_.firstTimeOfColumn(column + 1));
    QString s = QStringLiteral("<b>%1</b><br>%2 · %3<br>start %4 · duration %5")
                    .arg(QString::fromStdString(model_->names[tr.name(ref.index)]).toHtmlEscaped(),
                         QString::fromLatin1(toString(tr.kind(ref.index))),
                         QString::fromStdString(model_->styles[tr.style(ref.index)]),
                         fmtDur(tr.start(ref.index) - model_->runStart),
                         fmtDur(tr.end(ref.index) - tr.start(ref.index)));
    if (hi > lo + 1)
        s += QStringLiteral("<br><i>%1 events in this pixel (%2 busy) — zoom in to see them</i>")
                 .arg(hi - lo)
                 .arg(fmtDur(tr.busy(lo, hi)));
    return s;
}

bool TimelineView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString tip = tooltipAt(he->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(e);
}

void TimelineView::userChangedAxis() {
    if (model_) {
        const Ns pad = std::max<Ns>(1, (model_->runEnd - model_->runStart) / 2);
        axis_.clampTo(model_->runStart - pad, model_->runEnd + pad);
    }
    update();
    emit axisChanged();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const QPoint delta = e->angleDelta();
    if (e->modifiers() & Qt::ShiftModifier) {
        vbar_->setValue(vbar_->value() - delta.y());
    } else if ((e->modifiers() & Qt::AltModifier) || delta.x() != 0) {
        axis_.panPixels(-(delta.x() != 0 ? delta.x() : delta.y()) / 2.0);
        userChangedAxis();
    } else {
        const double x = std::clamp(e->position().x() - labelWidth_, 0.0, static_cast<double>(axis_.width()));
        axis_.zoomAt(x, std::pow(0.8, delta.y() / 120.0));
        userChangedAxis();
    }
    e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    pressPos_ = lastPos_ = e->position().toPoint();
    moved_ = false;
    if (e->button() != Qt::LeftButton)
        return;
    if (pressPos_.y() >= kRulerHeight && pressPos_.y() < rowsTop() && pressPos_.x() >= labelWidth_) {
        drag_ = Drag::Minimap;
        mouseMoveEvent(e);
        return;
    }
    if ((e->modifiers() & Qt::ShiftModifier) && pressPos_.x() >= labelWidth_) {
        drag_ = Drag::Range;
        const int row = rowAt(pressPos_);
        rangeRank_ = row >= 0 ? model_->rows[row].rank : 0;
        rangeAnchor_ = axis_.timeAt(pressPos_.x() - labelWidth_);
        return;
    }
    drag_ = Drag::Pan;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    const QPoint d = pos - lastPos_;
    lastPos_ = pos;
    if ((pos - pressPos_).manhattanLength() > 3)
        moved_ = true;
    switch (drag_) {
    case Drag::None:
        return;
    case Drag::Pan:
        axis_.panPixels(-d.x());
        vbar_->setValue(vbar_->value() - d.y());
        userChangedAxis();
        return;
    case Drag::Range:
        setRange(rangeRank_, rangeAnchor_, axis_.timeAt(pos.x() - labelWidth_));
        return;
    case Drag::Minimap:
        if (model_ && model_->runEnd > model_->runStart) {
            const TimeAxis whole(model_->runStart, model_->runEnd - model_->runStart, axis_.width());
            const Ns centre = whole.timeAt(pos.x() - labelWidth_);
            axis_.setWindow(centre - axis_.span() / 2, centre - axis_.span() / 2 + axis_.span());
            userChangedAxis();
        }
        return;
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    const Drag d = drag_;
    drag_ = Drag::None;
    if (e->button() != Qt::LeftButton || !model_)
        return;
    if (d == Drag::Range) {
        if (rangeValid_ && moved_)
            emit rangeSelected(rangeRank_, rangeStart_, rangeEnd_);
        return;
    }
    if (moved_ || d == Drag::Minimap)
        return;
    const QPoint pos = e->position().toPoint();
    if (const int g = groupHeaderAt(pos); g >= 0) {
        setCollapsed(g, !isCollapsed(g));
        return;
    }
    const EventRef ref = eventAt(pos);
    selected_ = ref;
    flowFrom_ = flowTo_ = {};
    update();
    if (ref.valid())
        emit selectionChanged(ref);
    else
        emit selectionCleared();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    const EventRef ref = eventAt(e->position().toPoint());
    if (!ref.valid())
        return;
    selected_ = ref;
    zoomTo(eventStart(ref), std::max(eventEnd(ref), eventStart(ref) + 1));
    emit selectionChanged(ref);
    emit axisChanged();
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    const QPoint local = mapFromGlobal(QCursor::pos());
    const double anchor = (local.x() >= labelWidth_ && local.x() < labelWidth_ + axis_.width())
                              ? local.x() - labelWidth_
                              : axis_.width() / 2.0;
    switch (e->key()) {
    case Qt::Key_W:
        axis_.zoomAt(anchor, 0.75);
        break;
    case Qt::Key_S:
        axis_.zoomAt(anchor, 1 / 0.75);
        break;
    case Qt::Key_A:
        axis_.panPixels(-axis_.width() / 8.0);
        break;
    case Qt::Key_D:
        axis_.panPixels(axis_.width() / 8.0);
        break;
    case Qt::Key_F:
        if (rangeValid_)
            zoomTo(rangeStart_, rangeEnd_);
        else if (selected_.valid())
            zoomTo(eventStart(selected_), std::max(eventEnd(selected_), eventStart(selected_) + 1));
        else
            fitAll();
        break;
    case Qt::Key_Escape:
        clearSelection();
        emit selectionCleared();
        return;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    userChangedAxis();
}

} // namespace cnp::wb
