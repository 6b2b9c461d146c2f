#pragma once
// The drawing surface of the timeline: ruler, minimap, step bands, rows with sticky labels, events,
// counters, search highlights, selection, range selection and the flow arrow. It only presents: the
// draw lists come from EventTrack::buildSpans (<= 2 primitives per pixel column per lane, nothing in
// view ever disappears) and the numbers from the analysis library via the page.
// One frame in three parts, one per file: input and layout (TimelineView.cpp: model, rows, geometry,
// hit tests, mouse/keyboard/wheel, tooltips), the span-building job pool (SpanJobPool: the draw lists
// of the lanes in view, in parallel) and painting (TimelineViewPaint.cpp: ruler, minimap, rows,
// counters, labels from the layout and the draw lists).
// Interaction: wheel zooms at the cursor (Shift+wheel scrolls rows, Alt+wheel pans), drag pans,
// Shift+drag selects a range, W/S zoom, A/D pan, double-click zooms to an event, F fits the selection,
// Esc clears it, click on a group header collapses/expands it, click/drag in the minimap moves the view.
#include "timeline/EventDetails.h"
#include "timeline/SpanJobPool.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelineSearch.h"

#include <QColor>
#include <QFontMetrics>
#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QScrollBar;

namespace cnp::wb {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRulerHeight = 22;
    static constexpr int kMinimapHeight = 30;
    static constexpr int kLaneHeight = 18;
    static constexpr int kHeaderHeight = 20;

    explicit TimelineView(QWidget* parent = nullptr);

    // Shows `model` fitted to the whole run; nullptr shows nothing.
    void setModel(std::shared_ptr<const timeline::TimelineModel> model);
    const timeline::TimelineModel* model() const { return model_.get(); }
    // Loading indicator drawn over the rows: fraction in [0, 1], or < 0 for none.
    void setLoadingProgress(double fraction, const QString& text = {});
    void setTitle(const QString& title); // drawn in the corner above the labels (compare mode)

    const timeline::TimeAxis& axis() const { return axis_; }
    void setAxis(const timeline::TimeAxis& axis); // no axisChanged
    void fitAll();
    void zoomTo(Ns start, Ns end); // with a 5 % margin on each side (a jump's context may reach past
                                   // the run; the next pan or zoom brings the view back inside)
    // The user's view never leaves the run (issue 15): panning (drag, A/D, Alt+wheel, minimap) stops,
    // and zooming out ends, at the run's span with a 5 % margin on each side (marginFor; the fitAll()
    // view), so no pan reaches empty time and every part of the run stays reachable.
    void scrollToRank(std::int32_t rank);
    void scrollToRow(int row);
    void setCollapsed(int group, bool collapsed);
    bool isCollapsed(int group) const;

    void setSearch(std::shared_ptr<const timeline::TimelineSearch> search);
    const timeline::TimelineSearch* search() const { return search_.get(); }
    void setSelected(const timeline::EventRef& ref);
    const timeline::EventRef& selected() const { return selected_; }
    // Arrow from `from` (a launching API call) to `to` (its GPU activity); invalid refs hide it.
    void setFlow(const timeline::EventRef& from, const timeline::EventRef& to);
    void clearSelection();
    bool hasRange() const { return rangeValid_; }
    Ns rangeStart() const { return rangeStart_; }
    Ns rangeEnd() const { return rangeEnd_; }
    std::int32_t rangeRank() const { return rangeRank_; }
    void setRange(std::int32_t rank, Ns start, Ns end);

    // Geometry (widget coordinates), for the page and tests.
    int labelWidth() const { return labelWidth_; }
    int rowsTop() const { return kRulerHeight + kMinimapHeight; }
    QRect rowsArea() const;
    int laneY(int row, int lane) const; // top of the lane, -1 when the row is collapsed away
    timeline::EventRef eventAt(QPoint p) const;
    int groupHeaderAt(QPoint p) const; // -1 when none
    int rowAt(QPoint p) const;         // -1 when none

    // The ruler's ticks in view: x of the tick line, its label and the label's box (widget coordinates).
    // A label that would not fit before the right edge is empty (the tick line stays).
    struct RulerTick {
        int x = 0;
        QString label;
        QRect labelRect;
    };
    std::vector<RulerTick> rulerTicks(const QFontMetrics& fm) const;
    // Ruler text of time `t` (ns from the run start) for ticks `step` ns apart in a view reaching
    // `magnitude` ns from the run start: one unit for the whole ruler, the largest not above the
    // magnitude, with the decimals the step needs ("37.5 ms", never "37500 µs").
    static QString rulerLabel(Ns t, Ns step, Ns magnitude);
    // The text drawn in a slice `width` px wide: the name, elided with "…" at the end; empty when not
    // even one character and the ellipsis fit.
    static QString sliceLabel(const QString& name, const QFontMetrics& fm, int width);

    // Draws one frame into `p` (size: the widget's size). Public so the benchmark can render
    // offscreen into a QImage. Returns the number of primitives drawn.
    int paintFrame(QPainter& p);

signals:
    void selectionChanged(const cnp::timeline::EventRef& ref);
    void rangeSelected(std::int32_t rank, Ns start, Ns end);
    void selectionCleared();
    void axisChanged(); // the user zoomed or panned

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool event(QEvent* e) override;
    void changeEvent(QEvent* e) override; // a theme change redraws the minimap in the new colours

private:
    void relayout();
    void updateScrollBar();
    void userChangedAxis();
    static Ns marginFor(Ns start, Ns end); // 5 % of [start, end), at least 1 ns
    // `t` within the run [runStart, runEnd]: a Shift+drag range never reaches the margin around it.
    Ns timeInRun(Ns t) const;
    void clampToRun(); // the axis inside the run's limits (see zoomTo)
    void drawRuler(QPainter& p);
    void drawMinimap(QPainter& p);
    void drawLabels(QPainter& p);
    int drawRows(QPainter& p);
    // What drawing a lane takes from its frame; textBudget counts down the labels the frame may still draw.
    struct LanePaint {
        QFontMetrics fm;
        int minTextPx = 0;
        int textBudget = 0;
        QColor text;
        QRect area;
    };
    void drawStepBands(QPainter& p, const timeline::TimelineRow& row, const QRect& rowRect);
    int drawLane(QPainter& p, LanePaint& lp, int rowIndex, int lane, int ly,
                 const std::vector<timeline::DrawSpan>& spans);
    void drawSelectionAndFlow(QPainter& p, const QRect& area);
    void drawRangeSelection(QPainter& p, const QRect& area);
    void drawCounter(QPainter& p, const timeline::TimelineRow& row, int y, int h);
    QString tooltipAt(QPoint pos) const;
    Ns eventStart(const timeline::EventRef& r) const;
    Ns eventEnd(const timeline::EventRef& r) const;

    std::shared_ptr<const timeline::TimelineModel> model_;
    std::vector<bool> collapsed_; // per group
    std::vector<timeline::LayoutItem> layout_;
    std::vector<int> rowItem_; // row -> index into layout_, -1 when hidden
    int contentHeight_ = 0;
    timeline::TimeAxis axis_;
    int labelWidth_ = 230;
    QScrollBar* vbar_ = nullptr;
    std::vector<QColor> colors_;
    QString title_;
    double loading_ = -1;
    QString loadingText_;

    std::shared_ptr<const timeline::TimelineSearch> search_;
    timeline::EventRef selected_, flowFrom_, flowTo_;
    bool rangeValid_ = false;
    Ns rangeStart_ = 0, rangeEnd_ = 0;
    std::int32_t rangeRank_ = 0;

    enum class Drag { None, Pan, Range, Minimap };
    Drag drag_ = Drag::None;
    QPoint pressPos_, lastPos_;
    bool moved_ = false;
    Ns rangeAnchor_ = 0;

    QImage minimapCache_;
    const QString& nameText(std::uint32_t name) const;      // cached QString of a model name
    SpanJobPool spanJobs_;                                  // the draw lists of the lanes in view
    std::vector<const timeline::EventTrack*> visibleLanes_; // scratch: lanes in view, in order
    QImage laneImage_; // scratch: one lane's narrow spans as pixels, the lane's height
    mutable std::vector<QString> nameCache_;
};

} // namespace cnp::wb
