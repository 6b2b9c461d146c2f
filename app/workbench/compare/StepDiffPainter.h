#pragma once
// Draws the step diff (metrics/StepAlignment.h) for StepDiffView: a legend, a time ruler (offsets from
// each step's GPU start) and per stream pair three rows: A's activities, B's activities, and the
// cumulative shift curve. Matched activities are coloured on a diverging scale by B's duration over A's
// (green: B faster, grey: equal, red: B slower, saturating at ×4), added ones (B only) blue with a
// "/" hatch in B's row, removed ones (A only) amber with a "\" hatch in A's row; activities of the
// highlighted kernel are outlined in the timeline's search colour. Each item is drawn at least 1 px wide;
// items of under a pixel that fall in the column of the box before (same kind) are skipped, so a paint
// draws O(pixel columns) boxes per row while it visits O(items in the lanes).
#include "metrics/StepAlignment.h"

#include <QColor>
#include <QCoreApplication>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

class QPainter;
class QPalette;

namespace cnp::wb {

// The view's layout and visible window, shared by painting and hit testing.
struct StepDiffGeometry {
    static constexpr int kLegend = 24, kRuler = 22, kLabel = 150, kHeader = 18, kRow = 20, kCurve = 56,
                         kGap = 10;
    static constexpr int laneHeight() { return kHeader + 2 * kRow + kCurve + kGap; }
    int width = 0;
    double viewStart = 0, viewLength = 1; // ns offsets from the step start
    int plotWidth() const { return width > kLabel ? width - kLabel : 1; }
    double xOf(double offset) const { return kLabel + (offset - viewStart) * plotWidth() / viewLength; }
    double offsetAt(double x) const { return viewStart + (x - kLabel) * viewLength / plotWidth(); }
    static int laneTop(int lane) { return kLegend + kRuler + lane * laneHeight(); }
};

class StepDiffPainter {
    Q_DECLARE_TR_FUNCTIONS(StepDiffPainter)

public:
    // Colour of a matched pair by durB / durA on the diverging scale.
    static QColor matchedColor(Ns durationA, Ns durationB, const QPalette& palette);
    static QColor addedColor();
    static QColor removedColor();

    StepDiffPainter(QPainter& p, const QPalette& palette, const StepDiffGeometry& g)
        : p_(p), palette_(palette), g_(g) {}
    void legend();
    void ruler(int height);
    // `highlighted`: per item of the lane, non-zero when it belongs to the highlighted kernel. Returns the
    // activity boxes drawn (both rows).
    std::size_t lane(const StepAlignment& s, std::size_t lane, const std::vector<char>& highlighted);

private:
    std::size_t items(const StepAlignment& s, const AlignedStream& l, const std::vector<char>& highlighted,
                      bool sideB, int top);
    void shiftCurve(const AlignedStream& l, int top);
    void labels(const AlignedStream& l, int top);
    void hatchedBox(const QRectF& r, const QColor& c, Qt::BrushStyle hatch);

    QPainter& p_;
    const QPalette& palette_;
    const StepDiffGeometry& g_;
};

} // namespace cnp::wb
