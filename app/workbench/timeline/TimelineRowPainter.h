#pragma once
// The rows of a timeline frame: group header bands and, per row, its picture (alternate shading, step
// bands, the lanes' events with names and search marks, or a counter), rendered from the draw lists of
// SpanJobPool (Qt Creator's tracing renderer: a pass per row, its result kept).
// Cache. One picture per row in view (a QImage of the rows area's width and the row's height, at the
// device's pixel ratio), valid while the frame's key is unchanged: the axis window and width, the
// frame's generation (model, search, palette, font) and the pixel ratio. A row's picture depends on
// its row index only, never on its place in the layout, so collapsing a group or scrolling vertically
// re-renders only the rows coming into view, and a repaint with the same key (hover, selection, range,
// flow arrow, loading overlay) re-renders nothing: those are drawn over the pictures by
// TimelineOverlayPainter. A pan or zoom changes the key and re-renders every row in view. Pictures of
// rows that leave the view are dropped: memory stays ~ one rows area.
#include "timeline/SpanJobPool.h"
#include "timeline/TimelineFrame.h"

#include <QFont>
#include <QFontMetrics>
#include <QImage>

#include <cstdint>
#include <unordered_map>
#include <vector>

class QPainter;

namespace cnp::wb {

class TimelineRowPainter {
public:
    // Draws the rows of `f` in view into `p` (clipped to the rows area), re-rendering the pictures that
    // are missing or stale. Returns the primitives drawn into re-rendered pictures (0 for a frame that
    // reused them all). O(events in view of the re-rendered rows) + one image copy per row in view.
    int paint(QPainter& p, const TimelineFrame& f);
    // Rows rendered since construction (tests: a repaint without axis change renders none).
    std::uint64_t rowRenders() const { return rowRenders_; }

    // The text drawn in a slice `width` px wide: the name, elided with "…" at the end; empty when not
    // even one character and the ellipsis fit.
    static QString sliceLabel(const QString& name, const QFontMetrics& fm, int width);

private:
    // What the pictures depend on besides the row index.
    struct Key {
        Ns start = 0, span = 0;
        int width = 0;
        std::uint64_t generation = 0;
        qreal dpr = 0;
        QFont font;
        bool operator==(const Key&) const = default;
    };
    // What drawing a lane takes from its pass; textBudget counts down the labels the pass may still draw.
    struct LanePaint {
        QFontMetrics fm;
        int minTextPx = 0;
        int textBudget = 0;
        QColor text;
    };
    using LaneSpans = std::vector<const std::vector<timeline::DrawSpan>*>;
    // The picture of `item` (a row); its lanes' draw lists are spans[job], spans[job + 1], ... (job
    // advances past them). Adds the primitives drawn to `prims`.
    QImage renderRow(const TimelineFrame& f, const timeline::LayoutItem& item, LanePaint& lp,
                     const LaneSpans& spans, std::size_t& job, int& prims);
    void drawStepBands(QPainter& p, const TimelineFrame& f, const timeline::TimelineRow& row,
                       const QRect& rowRect);
    int drawLane(QPainter& p, const TimelineFrame& f, LanePaint& lp, int rowIndex, int lane, int ly,
                 const std::vector<timeline::DrawSpan>& spans);
    void drawCounter(QPainter& p, const TimelineFrame& f, const timeline::TimelineRow& row, int h);
    // The QString of a model name, converted once per generation.
    const QString& nameText(const timeline::TimelineModel& m, std::uint32_t name);

    Key key_;
    std::unordered_map<int, QImage> pictures_; // row index -> its picture under key_
    std::uint64_t rowRenders_ = 0;
    SpanJobPool spanJobs_;                                // the draw lists of the lanes re-rendered
    std::vector<const timeline::EventTrack*> staleLanes_; // scratch: lanes of the rows to render, in order
    std::vector<int> inView_;                             // scratch: rows in view this frame
    QImage laneImage_;               // scratch: one lane's narrow spans as pixels, the lane's height
    std::vector<QString> nameCache_; // per name id, of key_.generation
};

} // namespace cnp::wb
