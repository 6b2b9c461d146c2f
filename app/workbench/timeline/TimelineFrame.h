#pragma once
// What one frame of the timeline shows, as the view hands it to its painters (TimelineRowPainter for the
// rows' contents, TimelineOverlayPainter for the ruler, minimap, labels and everything over the rows).
// A snapshot by value or by pointer into the view, valid for one paintFrame(); painters never change
// the view. Coordinates are the widget's; y of a layout item is pixels from the top of the rows.
#include "timeline/CriticalPathMarks.h"
#include "timeline/EventDetails.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineBookmarks.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelineSearch.h"

#include <QColor>
#include <QPalette>
#include <QRect>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace cnp::wb {

struct TimelineFrame {
    static constexpr int kRulerHeight = 22;
    static constexpr int kMinimapHeight = 30;
    static constexpr int kLaneHeight = 18;
    static constexpr int kHeaderHeight = 20;
    static constexpr int kRowsTop = kRulerHeight + kMinimapHeight;

    std::shared_ptr<const timeline::TimelineModel> model; // null: an empty view (ruler only)
    timeline::TimeAxis axis;                              // its width is rows.width()
    const std::vector<timeline::LayoutItem>* layout = nullptr;
    const std::vector<int>* rowItem = nullptr;    // row -> index into *layout, -1 when hidden
    const std::vector<bool>* collapsed = nullptr; // per group
    const std::vector<QColor>* colors = nullptr;  // per style id of the model
    const timeline::TimelineSearch* search = nullptr;
    // Bumped by the view whenever what rows look like changes other than by the axis: model, search,
    // palette, font. Row pictures of another generation are stale.
    std::uint64_t generation = 0;
    QPalette palette;
    QRect rows; // the rows area: right of the labels, below the minimap, left of the scroll bar
    int width = 0, height = 0, labelWidth = 0;
    int scroll = 0; // vertical scroll of the rows, px

    timeline::EventRef selected, flowFrom, flowTo;
    const std::vector<PathMark>* pathMarks = nullptr; // the critical path shown, in time order; null: none
    bool rangeValid = false;
    Ns rangeStart = 0, rangeEnd = 0;
    std::int32_t rangeRank = 0;
    const std::vector<timeline::TimelineBookmark>* bookmarks = nullptr; // sorted by time; null: none
    QString title;       // the corner text; empty: the run's name
    double loading = -1; // loading progress in [0, 1], < 0 for none
    QString loadingText;

    // The first layout item reaching below the top of the rows area: O(log items).
    std::vector<timeline::LayoutItem>::const_iterator firstVisible() const {
        return std::upper_bound(layout->begin(), layout->end(), scroll,
                                [](int v, const timeline::LayoutItem& li) { return v < li.y + li.height; });
    }
    // Widget y of the top of `item`.
    int yOf(const timeline::LayoutItem& item) const { return kRowsTop + item.y - scroll; }
    // Top of the lane, -1 when the row is collapsed away.
    int laneY(int row, int lane) const {
        if (row < 0 || row >= static_cast<int>(rowItem->size()) || (*rowItem)[row] < 0)
            return -1;
        return yOf((*layout)[(*rowItem)[row]]) + lane * kLaneHeight;
    }
};

} // namespace cnp::wb
