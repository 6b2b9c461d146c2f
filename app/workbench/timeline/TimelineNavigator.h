#pragma once
// The one authority over what a timeline view shows: the visible time window (a TimeAxis), the run's
// limits and the clamping rule, every zoom and pan, and a back/forward history of windows (Hotspot's
// filter-and-zoom stack, browser semantics). TimelineView, TimelinePage and every page's "jump to" change
// the window only through this object.
//
// History. Entries are windows [start, end) in ns (the width is not part of an entry: a resize keeps the
// history). Invariant: the current entry, entries[index], is always the window in view.
//  - A discrete navigation (fit, zoom to a range or event, a jump, a search hit) drops the entries after
//    the current one and appends its window: back() then returns to where the user was before it.
//  - A continuous change (wheel zoom, drag pan, A/D/W/S, minimap drag) belongs to a gesture. The first
//    change of a gesture that moves the window appends one entry; the gesture's later changes update
//    that entry in place. A gesture ends at endGesture() (the view calls it on mouse release, key
//    release and when the wheel has been idle for kWheelGestureMs) and at any discrete navigation,
//    back() or forward(). Nothing here reads a clock: tests drive gestures deterministically.
//  - A navigation that leaves the window where it is adds no entry.
//  - follow() (a compare view keeping the other's window, the benchmark) replaces the current entry.
//  - At most kHistoryLimit entries: the oldest is dropped.
// Clamping. Continuous changes keep the window inside the run with a 5 % margin on each side
// (marginFor of the run, the fitAll() window): zooming out stops at that span and panning at its edges.
// Discrete navigations are not clamped (a jump's context may reach past the run; the next pan or zoom
// brings the view back inside). Every operation is O(1) except pushes, O(kHistoryLimit) at worst.
#include "core/TraceData.h"
#include "timeline/TimeAxis.h"

#include <QObject>

#include <cstddef>
#include <vector>

namespace cnp::wb {

class TimelineNavigator : public QObject {
    Q_OBJECT
public:
    static constexpr std::size_t kHistoryLimit = 100;
    // The view ends a wheel gesture after this much wheel silence (the navigator has no timer itself).
    static constexpr int kWheelGestureMs = 500;

    // One history entry: the window [start, end) in ns.
    struct Window {
        Ns start = 0;
        Ns end = 0;
        bool operator==(const Window&) const = default;
    };

    explicit TimelineNavigator(QObject* parent = nullptr);

    const timeline::TimeAxis& axis() const { return axis_; }
    // The pixel width the window spans; not a navigation (no signal, no history).
    void setWidth(int px);

    // The run's limits for clamping; runEnd <= runStart means none (nothing is clamped, fitAll() is a
    // no-op). The window and the history stay.
    void setRun(Ns runStart, Ns runEnd);
    // Forgets every entry but the window in view (a new run).
    void clearHistory();
    // 5 % of [start, end) on each side, at least 1 ns.
    static Ns marginFor(Ns start, Ns end);
    // `t` within [runStart, runEnd] (unchanged without limits).
    Ns timeInRun(Ns t) const;

    // Discrete navigations: each ends a gesture and pushes an entry.
    void fitAll();                     // the run with its margin (the clamping limits themselves)
    void zoomTo(Ns start, Ns end);     // [start, end] with marginFor(start, end) on each side, not clamped
    void showWindow(Ns start, Ns end); // exactly [start, end), not clamped

    // Continuous changes: part of the current gesture, clamped to the run.
    void zoomAt(double x, double factor); // factor < 1 zooms in; the time at pixel x stays at x
    void panPixels(double dx);            // dx > 0: later times come into view
    void centreOn(Ns t);                  // same span, centred on t
    void endGesture();

    // Replaces the window in view and its entry, without a push (a view kept in step with another).
    void follow(Ns start, Ns end);

    bool canGoBack() const { return index_ > 0; }
    bool canGoForward() const { return index_ + 1 < history_.size(); }
    bool back();    // false when there is nowhere to go
    bool forward(); // false when there is nowhere to go
    const std::vector<Window>& history() const { return history_; }
    std::size_t historyIndex() const { return index_; }

signals:
    void rangeChanged();   // the window in view changed (any cause)
    void historyChanged(); // the entries or the current index changed (canGoBack/canGoForward may differ)

private:
    Window window() const { return {axis_.start(), axis_.end()}; }
    void clampToRun();
    // Shows `w` as a discrete navigation: ends the gesture, pushes unless the window does not move.
    void navigate(Window w);
    // After a continuous change from `before`: pushes at the gesture's first move, else updates its entry.
    void continued(Window before);
    void push(); // drops the entries after the current one, appends the window in view, bounds the size
    void restore(std::size_t index);

    timeline::TimeAxis axis_;
    Ns runStart_ = 0, runEnd_ = 0;                 // no limits while runEnd_ <= runStart_
    std::vector<Window> history_{Window{0, 1000}}; // never empty; history_[index_] is the window in view
    std::size_t index_ = 0;
    bool gestureMoved_ = false; // the open gesture has its entry (pushed at its first move)
};

} // namespace cnp::wb
