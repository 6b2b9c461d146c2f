#pragma once
// The step diff's lanes (StepDiffPainter draws them): one lane per stream pair with A's activities, B's
// and the cumulative shift. The timeline's mouse and keys: the wheel zooms at the pointer (Alt+wheel or a
// horizontal wheel pans), a drag pans, W/S zoom, A/D pan, F fits the step. Hovering names both sides of
// an item with their durations; a click on an item selects its kernel (itemActivated with the kernel's
// key: its name, or its normalised name when the diff matched normalised names), and the kernel set by
// setHighlightedKey is outlined wherever it occurs.
#include "metrics/StepAlignment.h"

#include "StepDiffPainter.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace cnp::wb {

class StepDiffView : public QWidget {
    Q_OBJECT
public:
    explicit StepDiffView(QWidget* parent = nullptr);

    // Shows `alignment` (nullptr: nothing), fitted to the longer step.
    void setAlignment(std::shared_ptr<const StepAlignment> alignment, bool normalized);
    const StepAlignment* alignment() const { return alignment_.get(); }
    void setHighlightedKey(const QString& key);
    QString highlightedKey() const { return highlighted_; }
    int highlightedCount() const; // items outlined
    void fitAll();
    double viewStart() const { return geometry_.viewStart; }
    double viewLength() const { return geometry_.viewLength; }
    // Where item `item` of lane `lane` is drawn in A's (or B's) row; an empty point when off view.
    QPoint itemCentre(int lane, int item, bool sideB) const;
    // The item under `pos` (lane, item; -1 when none) and whether it is in B's row.
    struct Hit {
        int lane = -1, item = -1;
        bool sideB = false;
    };
    Hit hitAt(const QPoint& pos) const;
    QString keyOf(int lane, int item) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void itemActivated(const QString& key);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;

private:
    void zoomAt(double x, double factor);
    void panPixels(double dx);
    void buildIndex();
    void markHighlighted();
    QString tooltipAt(const QPoint& pos) const;
    int findOnSide(const AlignedStream& l, const std::vector<std::int32_t>& order, bool sideB, double t,
                   double slack) const;

    std::shared_ptr<const StepAlignment> alignment_;
    bool normalized_ = false;
    StepDiffGeometry geometry_;
    double fullLength_ = 1;
    std::vector<std::vector<std::string>> keys_;             // per lane, per item: the kernel's key
    std::vector<std::vector<std::int32_t>> orderA_, orderB_; // per lane: items with an A (B) side, by start
    std::vector<std::vector<char>> marked_;                  // per lane, per item: of the highlighted kernel
    QString highlighted_;
    QPoint pressPos_, lastPos_;
    bool dragging_ = false, moved_ = false;
};

} // namespace cnp::wb
