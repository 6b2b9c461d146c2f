#include "StepDiffView.h"

#include "UnitFormat.h"
#include "metrics/RunDiff.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cnp::wb {

namespace {

using G = StepDiffGeometry;

QString signedDuration(Ns v) {
    return (v > 0   ? QStringLiteral("+")
            : v < 0 ? QStringLiteral("−")
                    : QString()) +
           UnitFormat::duration(static_cast<double>(v < 0 ? -v : v));
}

} // namespace

StepDiffView::StepDiffView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setObjectName(QStringLiteral("stepDiffView"));
}

void StepDiffView::setAlignment(std::shared_ptr<const StepAlignment> alignment, bool normalized) {
    alignment_ = std::move(alignment);
    normalized_ = normalized;
    buildIndex();
    markHighlighted();
    fitAll();
    updateGeometry();
}

void StepDiffView::buildIndex() {
    keys_.clear();
    orderA_.clear();
    orderB_.clear();
    if (!alignment_)
        return;
    const StepAlignment& s = *alignment_;
    for (const auto& l : s.streams) {
        auto& keys = keys_.emplace_back();
        auto& a = orderA_.emplace_back();
        auto& b = orderB_.emplace_back();
        keys.reserve(l.items.size());
        for (std::size_t k = 0; k < l.items.size(); ++k) {
            const AlignedItem& i = l.items[k];
            keys.push_back(normalized_ ? normaliseKernelName(s.name(i)) : s.name(i));
            if (i.a >= 0)
                a.push_back(static_cast<std::int32_t>(k));
            if (i.b >= 0)
                b.push_back(static_cast<std::int32_t>(k));
        }
        // Items of one side are in that side's start order already (StepAlignment's invariant); sort to be
        // sure.
        std::stable_sort(a.begin(), a.end(), [&](std::int32_t x, std::int32_t y) {
            return s.offsetA(l.items[static_cast<std::size_t>(x)]) <
                   s.offsetA(l.items[static_cast<std::size_t>(y)]);
        });
        std::stable_sort(b.begin(), b.end(), [&](std::int32_t x, std::int32_t y) {
            return s.offsetB(l.items[static_cast<std::size_t>(x)]) <
                   s.offsetB(l.items[static_cast<std::size_t>(y)]);
        });
    }
}

void StepDiffView::setHighlightedKey(const QString& key) {
    highlighted_ = key;
    markHighlighted();
    update();
}

void StepDiffView::markHighlighted() {
    marked_.assign(keys_.size(), {});
    const std::string key = highlighted_.toStdString();
    for (std::size_t l = 0; l < keys_.size(); ++l) {
        marked_[l].assign(keys_[l].size(), 0);
        if (key.empty())
            continue;
        for (std::size_t k = 0; k < keys_[l].size(); ++k)
            marked_[l][k] = keys_[l][k] == key ? 1 : 0;
    }
}

int StepDiffView::highlightedCount() const {
    int n = 0;
    for (const auto& lane : marked_)
        n += static_cast<int>(std::count(lane.begin(), lane.end(), 1));
    return n;
}

QString StepDiffView::keyOf(int lane, int item) const {
    if (lane < 0 || item < 0 || static_cast<std::size_t>(lane) >= keys_.size() ||
        static_cast<std::size_t>(item) >= keys_[static_cast<std::size_t>(lane)].size())
        return {};
    return QString::fromStdString(keys_[static_cast<std::size_t>(lane)][static_cast<std::size_t>(item)]);
}

void StepDiffView::fitAll() {
    const Ns span = alignment_ ? std::max(alignment_->totals.spanA, alignment_->totals.spanB) : 0;
    fullLength_ = std::max(1.0, static_cast<double>(span) * 1.02);
    geometry_.viewStart = 0;
    geometry_.viewLength = fullLength_;
    update();
}

QSize StepDiffView::sizeHint() const {
    const int lanes = alignment_ ? static_cast<int>(alignment_->streams.size()) : 1;
    return {900, G::laneTop(std::max(lanes, 1)) + 4};
}

QSize StepDiffView::minimumSizeHint() const {
    return {G::kLabel + 200, sizeHint().height()};
}

void StepDiffView::resizeEvent(QResizeEvent*) {
    geometry_.width = width();
}

void StepDiffView::paintEvent(QPaintEvent*) {
    geometry_.width = width();
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    StepDiffPainter painter(p, palette(), geometry_);
    painter.legend();
    painter.ruler(height());
    if (!alignment_)
        return;
    for (std::size_t l = 0; l < alignment_->streams.size(); ++l)
        painter.lane(*alignment_, l, l < marked_.size() ? marked_[l] : std::vector<char>{});
}

void StepDiffView::zoomAt(double x, double factor) {
    const double t = geometry_.offsetAt(std::clamp(x, double(G::kLabel), double(width())));
    const double length = std::clamp(geometry_.viewLength * factor, 100.0, fullLength_ * 4);
    geometry_.viewStart = t - (t - geometry_.viewStart) * length / geometry_.viewLength;
    geometry_.viewLength = length;
    update();
}

void StepDiffView::panPixels(double dx) {
    geometry_.viewStart += dx * geometry_.viewLength / geometry_.plotWidth();
    geometry_.viewStart =
        std::clamp(geometry_.viewStart, -geometry_.viewLength / 2, fullLength_ - geometry_.viewLength / 2);
    update();
}

void StepDiffView::wheelEvent(QWheelEvent* e) {
    const QPoint d = e->angleDelta();
    e->accept();
    if ((e->modifiers() & Qt::AltModifier) || d.x() != 0)
        panPixels(-(d.x() != 0 ? d.x() : d.y()) / 2.0);
    else
        zoomAt(e->position().x(), std::pow(0.8, d.y() / 120.0));
}

void StepDiffView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    pressPos_ = lastPos_ = e->position().toPoint();
    moved_ = false;
    dragging_ = e->button() == Qt::LeftButton;
}

void StepDiffView::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    if (!dragging_)
        return;
    if ((pos - pressPos_).manhattanLength() > 3)
        moved_ = true;
    panPixels(-(pos - lastPos_).x());
    lastPos_ = pos;
}

void StepDiffView::mouseReleaseEvent(QMouseEvent* e) {
    const bool click = dragging_ && !moved_ && e->button() == Qt::LeftButton;
    dragging_ = false;
    if (!click)
        return;
    const Hit h = hitAt(e->position().toPoint());
    if (h.item < 0)
        return;
    const QString key = keyOf(h.lane, h.item);
    setHighlightedKey(key);
    emit itemActivated(key);
}

void StepDiffView::keyPressEvent(QKeyEvent* e) {
    const QPoint local = mapFromGlobal(QCursor::pos());
    const double anchor = rect().contains(local) ? local.x() : G::kLabel + geometry_.plotWidth() / 2.0;
    switch (e->key()) {
    case Qt::Key_W:
        zoomAt(anchor, 0.75);
        break;
    case Qt::Key_S:
        zoomAt(anchor, 1 / 0.75);
        break;
    case Qt::Key_A:
        panPixels(-geometry_.plotWidth() / 8.0);
        break;
    case Qt::Key_D:
        panPixels(geometry_.plotWidth() / 8.0);
        break;
    case Qt::Key_F:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

int StepDiffView::findOnSide(const AlignedStream& l, const std::vector<std::int32_t>& order, bool sideB,
                             double t, double slack) const {
    const StepAlignment& s = *alignment_;
    auto startOf = [&](std::int32_t k) {
        const AlignedItem& i = l.items[static_cast<std::size_t>(k)];
        return static_cast<double>(sideB ? s.offsetB(i) : s.offsetA(i));
    };
    // The last item starting at or before t + slack; it or the one before may cover t.
    auto it = std::upper_bound(order.begin(), order.end(), t + slack,
                               [&](double v, std::int32_t k) { return v < startOf(k); });
    for (int back = 0; back < 2 && it != order.begin(); ++back) {
        --it;
        const AlignedItem& i = l.items[static_cast<std::size_t>(*it)];
        const double end = startOf(*it) + static_cast<double>(sideB ? s.durationB(i) : s.durationA(i));
        if (end + slack >= t)
            return *it;
    }
    return -1;
}

StepDiffView::Hit StepDiffView::hitAt(const QPoint& pos) const {
    Hit h;
    if (!alignment_ || pos.x() < G::kLabel || pos.y() < G::laneTop(0))
        return h;
    const int lane = (pos.y() - G::laneTop(0)) / G::laneHeight();
    if (lane < 0 || lane >= static_cast<int>(alignment_->streams.size()))
        return h;
    const int within = pos.y() - G::laneTop(lane) - G::kHeader;
    if (within < 0 || within >= 2 * G::kRow)
        return h;
    const bool sideB = within >= G::kRow;
    const auto& l = alignment_->streams[static_cast<std::size_t>(lane)];
    const double slack = geometry_.viewLength / geometry_.plotWidth(); // one pixel
    const int item = findOnSide(
        l, sideB ? orderB_[static_cast<std::size_t>(lane)] : orderA_[static_cast<std::size_t>(lane)], sideB,
        geometry_.offsetAt(pos.x()), slack);
    if (item >= 0)
        h = {lane, item, sideB};
    return h;
}

QPoint StepDiffView::itemCentre(int lane, int item, bool sideB) const {
    if (!alignment_ || lane < 0 || static_cast<std::size_t>(lane) >= alignment_->streams.size())
        return {};
    const auto& l = alignment_->streams[static_cast<std::size_t>(lane)];
    if (item < 0 || static_cast<std::size_t>(item) >= l.items.size())
        return {};
    const AlignedItem& i = l.items[static_cast<std::size_t>(item)];
    if (sideB ? i.b < 0 : i.a < 0)
        return {};
    const StepAlignment& s = *alignment_;
    const double start = static_cast<double>(sideB ? s.offsetB(i) : s.offsetA(i));
    const double mid = start + static_cast<double>(sideB ? s.durationB(i) : s.durationA(i)) / 2;
    const int y = G::laneTop(lane) + G::kHeader + (sideB ? G::kRow : 0) + G::kRow / 2;
    return {static_cast<int>(std::lround(geometry_.xOf(mid))), y};
}

QString StepDiffView::tooltipAt(const QPoint& pos) const {
    const Hit h = hitAt(pos);
    if (h.item < 0)
        return {};
    const StepAlignment& s = *alignment_;
    const AlignedItem& i =
        s.streams[static_cast<std::size_t>(h.lane)].items[static_cast<std::size_t>(h.item)];
    auto side = [&](const char* label, const StepGpuEvent& e, Ns offset) {
        return tr("<b>%1</b> %2<br>&nbsp;&nbsp;%3 at %4")
            .arg(QString::fromLatin1(label), QString::fromStdString(e.name).toHtmlEscaped(),
                 UnitFormat::durationExact(e.end - e.start),
                 UnitFormat::duration(static_cast<double>(offset)));
    };
    QStringList lines{tr("<i>%1</i>").arg(QString::fromLatin1(toString(i.kind)))};
    if (i.a >= 0)
        lines << side("A", s.a[static_cast<std::size_t>(i.a)], s.offsetA(i));
    if (i.b >= 0)
        lines << side("B", s.b[static_cast<std::size_t>(i.b)], s.offsetB(i));
    if (i.kind == AlignKind::Matched) {
        const Ns da = s.durationA(i), db = s.durationB(i);
        lines << tr("duration %1 (×%2), shift %3")
                     .arg(signedDuration(db - da),
                          QString::number(da > 0 ? double(db) / double(da) : 0.0, 'f', 2),
                          signedDuration(s.offsetB(i) - s.offsetA(i)));
    }
    return lines.join(QStringLiteral("<br>"));
}

bool StepDiffView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace cnp::wb
