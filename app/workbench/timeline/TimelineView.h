#pragma once
// The timeline widget: ruler, minimap, step bands, rows with sticky labels, events, counters, search
// highlights, selection, range selection and the flow arrow. It only presents: the draw lists come from
// EventTrack::buildSpans (<= 2 primitives per pixel column per lane, nothing in view ever disappears)
// and the numbers from the analysis library via the page.
// Its parts, one class each: this widget keeps the model, the vertical layout (rows, collapsed groups,
// scrolling), hit tests, input and tooltips; TimelineNavigator owns the visible window, the run's limits
// and the back/forward history (every zoom and pan goes through it); TimelineRowPainter renders each
// row in view once per axis into a cached picture (SpanJobPool builds the lanes' draw lists);
// TimelineOverlayPainter draws the ruler, minimap, labels, selection, range and loading box over them.
// Interaction: wheel zooms at the cursor (Shift+wheel scrolls rows, Alt+wheel pans), drag pans,
// Shift+drag selects a range, W/S zoom, A/D pan, double-click zooms to an event, F fits the selection,
// Esc clears it, click on a group header collapses/expands it, click/drag in the minimap moves the view,
// Alt+Left / Alt+Right and the mouse's back / forward buttons go back and forth in the view's history,
// Left / Right (or [ / ]) move the selection to the previous / next event of its lane and bring it into
// view, E / C expand / collapse every group (also on the context menu).
#include "timeline/CriticalPathMarks.h"
#include "timeline/EventDetails.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineFrame.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelineNavigator.h"
#include "timeline/TimelineOverlayPainter.h"
#include "timeline/TimelineRowPainter.h"
#include "timeline/TimelineSearch.h"

#include <QColor>
#include <QFontMetrics>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QScrollBar;
class QTimer;

namespace cnp::wb {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRulerHeight = TimelineFrame::kRulerHeight;
    static constexpr int kMinimapHeight = TimelineFrame::kMinimapHeight;
    static constexpr int kLaneHeight = TimelineFrame::kLaneHeight;
    static constexpr int kHeaderHeight = TimelineFrame::kHeaderHeight;

    explicit TimelineView(QWidget* parent = nullptr);

    // Shows `model` fitted to the whole run with a fresh history; nullptr shows nothing. The full model of
    // the run shown (replacing its overview) keeps the view, its history and the collapsed groups.
    void setModel(std::shared_ptr<const timeline::TimelineModel> model);
    const timeline::TimelineModel* model() const { return model_.get(); }
    // Loading indicator drawn over the rows: fraction in [0, 1], or < 0 for none.
    void setLoadingProgress(double fraction, const QString& text = {});
    void setTitle(const QString& title); // drawn in the corner above the labels (compare mode)

    // The visible window and its history. The user's view never leaves the run (issue 15): panning
    // (drag, A/D, Alt+wheel, minimap) stops, and zooming out ends, at the run's span with a 5 % margin on
    // each side (the fitAll() view), so no pan reaches empty time and every part of the run stays
    // reachable (TimelineNavigator's clamping rule).
    TimelineNavigator* navigator() const { return navigator_; }
    const timeline::TimeAxis& axis() const { return navigator_->axis(); }
    // Shows `axis`'s window in place of the current history entry (a view kept in step with another);
    // no axisChanged.
    void setAxis(const timeline::TimeAxis& axis);
    void fitAll();                 // a history entry
    void zoomTo(Ns start, Ns end); // with a 5 % margin on each side, a history entry (a jump's context
                                   // may reach past the run; the next pan or zoom brings it back inside)
    // Expands `rank`'s group and scrolls its first row to the top; nothing when the model has no such rank.
    void scrollToRank(RankId rank);
    // Opens the rank groups of `ranks` and collapses every other rank's group, so those ranks' lanes lie
    // side by side (a collective's members); ranks the model lacks are ignored, and when it has none of
    // them nothing changes. O(groups log ranks + ranks log ranks).
    void openOnlyRanks(const std::vector<std::int32_t>& ranks);
    // Expands every collapsed group around `row` and scrolls it into view.
    void scrollToRow(int row);
    void setCollapsed(int group, bool collapsed);
    bool isCollapsed(int group) const;
    // Every group open (false) or closed (true), in one relayout (as a click on each header would).
    void setAllCollapsed(bool collapsed);
    // The context menu's and the keys' actions ("expandAllGroups", "collapseAllGroups"), owned by the view.
    QAction* expandAllAction() const { return expandAll_; }
    QAction* collapseAllAction() const { return collapseAll_; }
    // Moves the selection to the next (`forward`) or previous event of its lane, scrolls its row into
    // view and, when the event is not wholly in the window, centres the window on it (same span). False,
    // and nothing changes, without a selection or at the lane's end. Emits selectionChanged.
    bool stepSelection(bool forward);

    // The run's bookmarks (sorted by time), drawn as flags under the ruler; the page keeps and stores them.
    void setBookmarks(std::vector<timeline::TimelineBookmark> bookmarks);
    const std::vector<timeline::TimelineBookmark>& bookmarks() const { return bookmarks_; }
    // Where Ctrl+B puts a bookmark: the selected event's start, else the range's start, else the time under
    // the mouse when it is over the rows, else the middle of the window.
    Ns bookmarkTime() const;
    // Centres the window on `t`, same span (a discrete navigation: one history entry).
    void showTime(Ns t);

    void setSearch(std::shared_ptr<const timeline::TimelineSearch> search);
    const timeline::TimelineSearch* search() const { return search_.get(); }
    void setSelected(const timeline::EventRef& ref);
    const timeline::EventRef& selected() const { return selected_; }
    // Arrow from `from` (a launching API call) to `to` (its GPU activity); invalid refs hide it. Selecting
    // an event that is neither end (setSelected) hides it too.
    void setFlow(const timeline::EventRef& from, const timeline::EventRef& to);
    const timeline::EventRef& flowFrom() const { return flowFrom_; }
    const timeline::EventRef& flowTo() const { return flowTo_; }
    void clearSelection();
    // Highlights one rank's critical path of the shown run (CriticalPathMarks): its events outlined, its
    // segments shaded and joined by a polyline. Kept across the overview -> full model of the same run
    // (the marks are found again in the new model); another run, or nullptr, clears it.
    void setCriticalPath(std::shared_ptr<const RankCriticalPath> path);
    const RankCriticalPath* criticalPath() const { return criticalPath_.get(); }
    const CriticalPathMarks& criticalPathMarks() const { return pathMarks_; }
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

    // The painters' text rules (TimelineOverlayPainter::rulerLabel, TimelineRowPainter::sliceLabel).
    static QString rulerLabel(Ns t, Ns step, Ns magnitude) {
        return TimelineOverlayPainter::rulerLabel(t, step, magnitude);
    }
    static QString sliceLabel(const QString& name, const QFontMetrics& fm, int width) {
        return TimelineRowPainter::sliceLabel(name, fm, width);
    }

    // Draws one frame into `p` (size: the widget's size). Public so the benchmark can render
    // offscreen into a QImage. Returns the number of primitives drawn into the row pictures rendered
    // for this frame: every row in view after a zoom or pan, none when the axis did not change.
    int paintFrame(QPainter& p);
    // Row pictures rendered since construction (TimelineRowPainter's cache, for tests).
    std::uint64_t rowRenders() const { return rows_.rowRenders(); }

signals:
    void selectionChanged(const cnp::timeline::EventRef& ref);
    void rangeSelected(std::int32_t rank, Ns start, Ns end);
    void selectionCleared();
    void axisChanged(); // the user zoomed, panned or went back or forward

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void keyReleaseEvent(QKeyEvent*) override; // ends a W/S/A/D gesture
    bool event(QEvent* e) override;
    void changeEvent(QEvent* e) override; // a theme or font change redraws rows and minimap in it
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    void relayout();
    void expandGroupsOf(int row); // opens the collapsed groups around `row`
    void updateScrollBar();
    void goInHistory(bool forward); // back or forward, when there is somewhere to go
    TimelineFrame frame() const;    // the state the painters draw
    QString tooltipAt(QPoint pos) const;
    Ns eventStart(const timeline::EventRef& r) const;
    Ns eventEnd(const timeline::EventRef& r) const;

    std::shared_ptr<const timeline::TimelineModel> model_;
    std::vector<bool> collapsed_; // per group
    std::vector<timeline::LayoutItem> layout_;
    std::vector<int> rowItem_; // row -> index into layout_, -1 when hidden
    int contentHeight_ = 0;
    TimelineNavigator* navigator_ = nullptr; // child: the window in view and its history
    QTimer* wheelIdle_ = nullptr;            // ends a wheel gesture after kWheelGestureMs of silence
    int labelWidth_ = 230;
    QScrollBar* vbar_ = nullptr;
    QAction* expandAll_ = nullptr;
    QAction* collapseAll_ = nullptr;
    std::vector<QColor> colors_;
    std::vector<timeline::TimelineBookmark> bookmarks_;
    QString title_;
    double loading_ = -1;
    QString loadingText_;

    std::shared_ptr<const timeline::TimelineSearch> search_;
    timeline::EventRef selected_, flowFrom_, flowTo_;
    std::shared_ptr<const RankCriticalPath> criticalPath_;
    RunId criticalPathRun_;
    CriticalPathMarks pathMarks_;
    bool rangeValid_ = false;
    Ns rangeStart_ = 0, rangeEnd_ = 0;
    std::int32_t rangeRank_ = 0;

    enum class Drag { None, Pan, Range, Minimap };
    Drag drag_ = Drag::None;
    QPoint pressPos_, lastPos_;
    bool moved_ = false;
    Ns rangeAnchor_ = 0;

    std::uint64_t generation_ = 0; // TimelineFrame::generation: bumped by model, search, palette, font
    TimelineRowPainter rows_;
    TimelineOverlayPainter overlay_;
};

} // namespace cnp::wb
