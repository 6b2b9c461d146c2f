#include "timeline/TimelineView.h"

#include "UnitFormat.h"
#include "timeline/TimelinePalette.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <memory>

namespace cnp::wb {

using namespace cnp::timeline;

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), navigator_(new TimelineNavigator(this)), wheelIdle_(new QTimer(this)),
      vbar_(new QScrollBar(Qt::Vertical, this)) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 150);
    connect(vbar_, &QScrollBar::valueChanged, this, [this]() { update(); });
    connect(navigator_, &TimelineNavigator::rangeChanged, this, [this]() { update(); });
    wheelIdle_->setSingleShot(true);
    wheelIdle_->setInterval(TimelineNavigator::kWheelGestureMs);
    connect(wheelIdle_, &QTimer::timeout, navigator_, &TimelineNavigator::endGesture);
    // Widget shortcuts of their own: the keys work while the view has focus, the menu shows them.
    expandAll_ = new QAction(tr("Expand All Groups"), this);
    expandAll_->setObjectName(QStringLiteral("expandAllGroups"));
    expandAll_->setShortcut(QKeySequence(Qt::Key_E));
    collapseAll_ = new QAction(tr("Collapse All Groups"), this);
    collapseAll_->setObjectName(QStringLiteral("collapseAllGroups"));
    collapseAll_->setShortcut(QKeySequence(Qt::Key_C));
    for (QAction* a : {expandAll_, collapseAll_}) {
        a->setShortcutContext(Qt::WidgetShortcut);
        addAction(a);
    }
    connect(expandAll_, &QAction::triggered, this, [this]() { setAllCollapsed(false); });
    connect(collapseAll_, &QAction::triggered, this, [this]() { setAllCollapsed(true); });
}

void TimelineView::setModel(std::shared_ptr<const TimelineModel> model) {
    ++generation_;
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
    if (!model_ || model_->runId != criticalPathRun_)
        criticalPath_.reset();
    pathMarks_ = criticalPath_ ? CriticalPathMarks(*model_, *criticalPath_) : CriticalPathMarks();
    if (sameRun) {
        collapsed_ = keepCollapsed;
        selected_ = flowFrom_ = flowTo_ = {}; // indices of the old model
        search_.reset();
        colors_ = TimelinePalette::forStyles(model_->styles);
        overlay_.invalidateMinimap();
        navigator_->setRun(model_->runStart, model_->runEnd);
        relayout();
        vbar_->setValue(scroll);
        return;
    }
    colors_ = model_ ? TimelinePalette::forStyles(model_->styles) : std::vector<QColor>{};
    selected_ = flowFrom_ = flowTo_ = {};
    bookmarks_.clear(); // another run's; the page sets this run's
    rangeValid_ = false;
    search_.reset();
    overlay_.invalidateMinimap();
    navigator_->setRun(model_ ? model_->runStart : 0, model_ ? model_->runEnd : 0);
    relayout();
    fitAll();
    navigator_->clearHistory(); // a new run starts its history at the whole run
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
    navigator_->setWidth(rowsArea().width());
    overlay_.invalidateMinimap();
    updateScrollBar();
}

void TimelineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) {
        ++generation_;
        overlay_.invalidateMinimap();
    }
}

void TimelineView::setAxis(const TimeAxis& axis) {
    navigator_->setWidth(rowsArea().width());
    navigator_->follow(axis.start(), axis.end());
}

void TimelineView::fitAll() {
    navigator_->setWidth(rowsArea().width());
    navigator_->fitAll();
}

void TimelineView::zoomTo(Ns start, Ns end) {
    navigator_->setWidth(rowsArea().width());
    navigator_->zoomTo(start, end);
}

void TimelineView::scrollToRow(int row) {
    if (row < 0 || row >= static_cast<int>(rowItem_.size()))
        return;
    expandGroupsOf(row);
    if (const int k = rowItem_[row]; k >= 0)
        vbar_->setValue(std::max(0, layout_[k].y - kHeaderHeight * 2));
}

// A jump, a search hit or a followed link lands on a row: every collapsed group around it opens (issue 32.4:
// a jump into rank 5 of a cluster run selected an event inside its collapsed group, out of sight).
void TimelineView::expandGroupsOf(int row) {
    bool changed = false;
    for (int g = model_->rows[row].group; g >= 0 && g < static_cast<int>(collapsed_.size());
         g = model_->groups[g].parent)
        if (collapsed_[g]) {
            collapsed_[g] = false;
            changed = true;
        }
    if (changed)
        relayout();
}

void TimelineView::scrollToRank(RankId rank) {
    if (!model_)
        return;
    for (std::size_t g = 0; g < model_->groups.size(); ++g)
        if (model_->groups[g].parent < 0 && model_->groups[g].rank == rank.value()) {
            if (collapsed_[g]) // what a jump shows on this rank (a range, an event) is inside the group
                setCollapsed(static_cast<int>(g), false);
            for (const auto& it : layout_)
                if (it.isGroup && it.index == static_cast<int>(g)) {
                    vbar_->setValue(it.y);
                    return;
                }
        }
}

void TimelineView::openOnlyRanks(const std::vector<std::int32_t>& ranks) {
    if (!model_ || ranks.empty())
        return;
    std::vector<std::int32_t> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    auto isMember = [&](std::size_t g) {
        return std::binary_search(sorted.begin(), sorted.end(), model_->groups[g].rank);
    };
    std::vector<std::size_t> rankGroups;
    for (std::size_t g = 0; g < model_->groups.size() && g < collapsed_.size(); ++g)
        if (model_->groups[g].parent < 0 && model_->groups[g].rank >= 0)
            rankGroups.push_back(g);
    if (std::none_of(rankGroups.begin(), rankGroups.end(), isMember))
        return; // none of them here: closing every rank would show nothing
    for (const std::size_t g : rankGroups)
        collapsed_[g] = !isMember(g);
    relayout();
}

void TimelineView::setCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= static_cast<int>(collapsed_.size()))
        return;
    collapsed_[group] = collapsed;
    relayout();
}

void TimelineView::setAllCollapsed(bool collapsed) {
    if (collapsed_.empty())
        return;
    std::fill(collapsed_.begin(), collapsed_.end(), collapsed);
    relayout();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(expandAll_);
    menu.addAction(collapseAll_);
    expandAll_->setEnabled(!collapsed_.empty());
    collapseAll_->setEnabled(!collapsed_.empty());
    menu.exec(e->globalPos());
}

void TimelineView::setBookmarks(std::vector<TimelineBookmark> bookmarks) {
    bookmarks_ = std::move(bookmarks);
    update();
}

Ns TimelineView::bookmarkTime() const {
    if (selected_.valid() && model_)
        return eventStart(selected_);
    if (rangeValid_)
        return rangeStart_;
    const QPoint local = mapFromGlobal(QCursor::pos());
    if (rowsArea().contains(local))
        return axis().timeAt(local.x() - labelWidth_);
    return axis().start() + (axis().end() - axis().start()) / 2;
}

void TimelineView::showTime(Ns t) {
    const Ns span = axis().end() - axis().start();
    navigator_->showWindow(t - span / 2, t - span / 2 + span);
    emit axisChanged();
}

bool TimelineView::stepSelection(bool forward) {
    if (!model_ || !selected_.valid() || selected_.row >= static_cast<int>(model_->rows.size()))
        return false;
    const auto& lanes = model_->rows[static_cast<std::size_t>(selected_.row)].lanes;
    if (selected_.lane < 0 || selected_.lane >= static_cast<int>(lanes.size()))
        return false;
    const EventTrack& lane = lanes[static_cast<std::size_t>(selected_.lane)];
    // A lane's events are sorted by start and never overlap: the neighbours in time are index -/+ 1.
    if (forward ? selected_.index + 1 >= lane.size() : selected_.index == 0)
        return false;
    EventRef next = selected_;
    next.index = forward ? selected_.index + 1 : selected_.index - 1;
    setSelected(next);
    scrollToRow(next.row);
    const Ns start = eventStart(next), end = std::max(eventEnd(next), start + 1);
    if (start < axis().start() || end > axis().end())
        navigator_->centreOn(start + (end - start) / 2);
    emit selectionChanged(next);
    return true;
}

bool TimelineView::isCollapsed(int group) const {
    return group >= 0 && group < static_cast<int>(collapsed_.size()) && collapsed_[group];
}

void TimelineView::setSearch(std::shared_ptr<const TimelineSearch> search) {
    search_ = std::move(search);
    ++generation_; // the marks are part of the row pictures
    update();
}

void TimelineView::setSelected(const EventRef& ref) {
    selected_ = ref;
    // The flow arrow belongs to the link it showed: a selection elsewhere (a search match, a jump) drops
    // it (issue 32.8: it stayed on the previous kernel while stepping through matches).
    if (ref != flowFrom_ && ref != flowTo_)
        flowFrom_ = flowTo_ = {};
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

void TimelineView::setCriticalPath(std::shared_ptr<const RankCriticalPath> path) {
    criticalPath_ = model_ ? std::move(path) : nullptr;
    criticalPathRun_ = criticalPath_ ? model_->runId : RunId();
    pathMarks_ = criticalPath_ ? CriticalPathMarks(*model_, *criticalPath_) : CriticalPathMarks();
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

TimelineFrame TimelineView::frame() const {
    TimelineFrame f;
    f.model = model_;
    f.axis = axis();
    f.layout = &layout_;
    f.rowItem = &rowItem_;
    f.collapsed = &collapsed_;
    f.colors = &colors_;
    f.search = search_.get();
    f.generation = generation_;
    f.palette = palette();
    f.rows = rowsArea();
    f.width = width();
    f.height = height();
    f.labelWidth = labelWidth_;
    f.scroll = vbar_->value();
    f.selected = selected_;
    f.flowFrom = flowFrom_;
    f.flowTo = flowTo_;
    f.pathMarks = pathMarks_.empty() ? nullptr : &pathMarks_.marks();
    f.rangeValid = rangeValid_;
    f.rangeStart = rangeStart_;
    f.rangeEnd = rangeEnd_;
    f.rangeRank = rangeRank_;
    f.bookmarks = &bookmarks_;
    f.title = title_;
    f.loading = loading_;
    f.loadingText = loadingText_;
    return f;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintFrame(p);
}

int TimelineView::paintFrame(QPainter& p) {
    navigator_->setWidth(rowsArea().width());
    const TimelineFrame f = frame();
    p.fillRect(rect(), f.palette.color(QPalette::Base));
    const int prims = model_ ? rows_.paint(p, f) : 0;
    overlay_.paint(p, f);
    return prims;
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
    if (!model_ || p.x() < labelWidth_ || p.x() >= labelWidth_ + axis().width())
        return {};
    const int row = rowAt(p);
    if (row < 0)
        return {};
    const int lane = (p.y() - laneY(row, 0)) / kLaneHeight;
    const TimelineRow& r = model_->rows[row];
    if (lane < 0 || lane >= static_cast<int>(r.lanes.size()))
        return {};
    const double x = p.x() - labelWidth_ + 0.5;
    const std::int64_t hit = r.lanes[lane].hitTest(axis(), p.x() - labelWidth_, axis().timeAt(x));
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

QString TimelineView::tooltipAt(QPoint pos) const {
    const EventRef ref = eventAt(pos);
    if (!ref.valid())
        return {};
    const TimelineRow& row = model_->rows[ref.row];
    const EventTrack& tr = row.lanes[ref.lane];
    const std::int64_t column = pos.x() - labelWidth_;
    const std::size_t lo = tr.firstEndingAfter(axis().firstTimeOfColumn(column));
    const std::size_t hi = tr.firstStartingAtOrAfter(axis().firstTimeOfColumn(column + 1));
    QString s = QStringLiteral("<b>%1</b><br>%2 · %3<br>start %4 · duration %5")
                    .arg(QString::fromStdString(model_->names[tr.name(ref.index)]).toHtmlEscaped(),
                         QString::fromLatin1(toString(tr.kind(ref.index))),
                         QString::fromStdString(model_->styles[tr.style(ref.index)]),
                         UnitFormat::duration(static_cast<double>(tr.start(ref.index) - model_->runStart)),
                         UnitFormat::duration(static_cast<double>(tr.end(ref.index) - tr.start(ref.index))));
    if (hi > lo + 1)
        s += QStringLiteral("<br><i>%1 events in this pixel (%2 busy) — zoom in to see them</i>")
                 .arg(hi - lo)
                 .arg(UnitFormat::duration(static_cast<double>(tr.busy(lo, hi))));
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

void TimelineView::goInHistory(bool forward) {
    if (forward ? navigator_->forward() : navigator_->back())
        emit axisChanged();
}

// A wheel gesture is the wheel events until kWheelGestureMs of silence (or the end of a scroll phase).
void TimelineView::wheelEvent(QWheelEvent* e) {
    const QPoint delta = e->angleDelta();
    e->accept();
    if (e->modifiers() & Qt::ShiftModifier) {
        vbar_->setValue(vbar_->value() - delta.y());
        return;
    }
    if ((e->modifiers() & Qt::AltModifier) || delta.x() != 0) {
        navigator_->panPixels(-(delta.x() != 0 ? delta.x() : delta.y()) / 2.0);
    } else {
        const double x =
            std::clamp(e->position().x() - labelWidth_, 0.0, static_cast<double>(axis().width()));
        navigator_->zoomAt(x, std::pow(0.8, delta.y() / 120.0));
    }
    if (e->phase() == Qt::ScrollEnd)
        navigator_->endGesture();
    else
        wheelIdle_->start();
    emit axisChanged();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    navigator_->endGesture(); // a press starts a gesture of its own
    pressPos_ = lastPos_ = e->position().toPoint();
    moved_ = false;
    if (e->button() == Qt::BackButton || e->button() == Qt::ForwardButton) {
        goInHistory(e->button() == Qt::ForwardButton);
        return;
    }
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
        rangeAnchor_ = navigator_->timeInRun(axis().timeAt(pressPos_.x() - labelWidth_));
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
        navigator_->panPixels(-d.x());
        vbar_->setValue(vbar_->value() - d.y());
        emit axisChanged();
        return;
    case Drag::Range:
        setRange(rangeRank_, rangeAnchor_, navigator_->timeInRun(axis().timeAt(pos.x() - labelWidth_)));
        return;
    case Drag::Minimap:
        if (model_ && model_->runEnd > model_->runStart) {
            const TimeAxis whole(model_->runStart, model_->runEnd - model_->runStart, axis().width());
            navigator_->centreOn(whole.timeAt(pos.x() - labelWidth_));
            emit axisChanged();
        }
        return;
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    const Drag d = drag_;
    drag_ = Drag::None;
    navigator_->endGesture();
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

// W/S/A/D are continuous (held, one gesture until released); F is a discrete navigation.
void TimelineView::keyPressEvent(QKeyEvent* e) {
    if (e->matches(QKeySequence::Back) || e->matches(QKeySequence::Forward)) {
        goInHistory(e->matches(QKeySequence::Forward));
        return;
    }
    const QPoint local = mapFromGlobal(QCursor::pos());
    const double anchor = (local.x() >= labelWidth_ && local.x() < labelWidth_ + axis().width())
                              ? local.x() - labelWidth_
                              : axis().width() / 2.0;
    switch (e->key()) {
    case Qt::Key_W:
        navigator_->zoomAt(anchor, 0.75);
        break;
    case Qt::Key_S:
        navigator_->zoomAt(anchor, 1 / 0.75);
        break;
    case Qt::Key_A:
        navigator_->panPixels(-axis().width() / 8.0);
        break;
    case Qt::Key_D:
        navigator_->panPixels(axis().width() / 8.0);
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
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_BracketLeft:
    case Qt::Key_BracketRight:
        if (e->modifiers() & ~Qt::KeypadModifier) { // Alt+Left is Back, handled above
            QWidget::keyPressEvent(e);
            return;
        }
        if (!stepSelection(e->key() == Qt::Key_Right || e->key() == Qt::Key_BracketRight))
            return;
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    emit axisChanged();
}

void TimelineView::keyReleaseEvent(QKeyEvent* e) {
    if (!e->isAutoRepeat())
        navigator_->endGesture();
    QWidget::keyReleaseEvent(e);
}

} // namespace cnp::wb
