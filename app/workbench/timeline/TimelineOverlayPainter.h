#pragma once
// Everything of a timeline frame around and over the rows' pictures (TimelineRowPainter): the selected
// event's outline and the flow arrow, the critical path, the range selection, the labels column with sticky
// group headers, the minimap (GPU busy over the whole run, with the view's window), the ruler and the loading
// box. Cheap by construction: O(rows in view + ticks + width) per frame, the minimap's busy profile
// being computed once per width and model (invalidateMinimap()).
#include "timeline/TimelineFrame.h"

#include <QColor>
#include <QFontMetrics>
#include <QImage>
#include <QString>

#include <vector>

class QPainter;

namespace cnp::wb {

class TimelineOverlayPainter {
public:
    // The colour of the critical path's marks, in either theme.
    static QColor criticalPathColor();
    // Draws the overlays of `f` into `p`, after the rows.
    void paint(QPainter& p, const TimelineFrame& f);
    // The next frame recomputes the minimap's profile (a new model, palette or theme).
    void invalidateMinimap() { minimap_ = QImage(); }

    // The ruler's ticks in view: x of the tick line, its label and the label's box (widget coordinates).
    // A label that would not fit before the right edge is empty (the tick line stays).
    struct RulerTick {
        int x = 0;
        QString label;
        QRect labelRect;
    };
    static std::vector<RulerTick> rulerTicks(const TimelineFrame& f, const QFontMetrics& fm);
    // Ruler text of time `t` (ns from the run start) for ticks `step` ns apart in a view reaching
    // `magnitude` ns from the run start: one unit for the whole ruler, the largest not above the
    // magnitude, with the decimals the step needs ("37.5 ms", never "37500 µs").
    static QString rulerLabel(Ns t, Ns step, Ns magnitude);
    // The bookmark markers' colour (a magenta no category or CPU kind uses) and x of a bookmark's marker
    // (widget coordinates; outside [labelWidth, labelWidth + axis width) when out of view).
    static QColor bookmarkColor();
    static int bookmarkX(const TimelineFrame& f, Ns time);

private:
    void drawRuler(QPainter& p, const TimelineFrame& f);
    void drawMinimap(QPainter& p, const TimelineFrame& f);
    void drawLabels(QPainter& p, const TimelineFrame& f);
    void drawSelectionAndFlow(QPainter& p, const TimelineFrame& f);
    // The critical path (f.pathMarks): each segment's span shaded on its row, the events on the path
    // outlined, consecutive segments joined by a polyline (across rows: cross-stream, launch and sync
    // edges). O(segments) per frame.
    void drawCriticalPath(QPainter& p, const TimelineFrame& f);
    void drawRangeSelection(QPainter& p, const TimelineFrame& f);
    void drawLoading(QPainter& p, const TimelineFrame& f);
    // A flag under the ruler and a thin line over the rows at each bookmark in view, its label beside
    // the flag where it fits. O(bookmarks).
    void drawBookmarks(QPainter& p, const TimelineFrame& f);

    QImage minimap_; // the busy profile at the minimap's width; null: to compute
};

} // namespace cnp::wb
