// Issue 15.5, the timeline's drawing rules: ruler labels use one sensible unit with the decimals the
// tick step needs ("37.5 ms", not "37500 µs") and none runs past the right edge; slice labels elide
// with "…" and never exceed their slice; adjacent slices of one colour keep a 1 px gap; search marks
// use a colour no category or CPU kind uses.
// Issue 15 (Xvfb drive): no pan (drag, A/D, Alt+wheel, minimap) reaches empty time beyond the run's
// 5 % margin, zooming out stops at the whole run, and both ends of the run stay reachable.
// Issue 26.5: the row pictures are re-rendered only when the axis (or model, search, theme) changes,
// a cached frame is pixel-identical to a fresh one, and Alt+Left / the mouse's back button go back.
#include "metrics/CategoryRules.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>
#include <memory>

using cnp::Ns;
using cnp::wb::TimelinePalette;
using cnp::wb::TimelineView;
using namespace cnp::timeline;

namespace {

// A run of 100 ms starting at 1 ms (absolute ns, as stored): one rank, one stream of 100 kernels of
// 0.5 ms, one per ms. The limits the view keeps: the run +- 5 % of its span = [-4 ms, 106 ms].
constexpr Ns kRunStart = 1'000'000, kRunEnd = 101'000'000, kMargin = 5'000'000;

// One rank, one stream of "gemm" kernels of `duration` ns, one every `period` ns from the run's start.
std::shared_ptr<const TimelineModel> kernelRun(Ns runStart, Ns runEnd, Ns period, Ns duration) {
    auto m = std::make_shared<TimelineModel>();
    m->runId = cnp::RunId(1);
    m->runName = "synthetic";
    m->runStart = runStart;
    m->runEnd = runEnd;
    m->names = {"", "gemm"};
    m->styles = {"gemm"};
    m->groups.push_back(TimelineGroup{"rank 0", -1, 0, 0, false});
    TimelineRow row;
    row.kind = RowKind::GpuStream;
    row.label = "stream 7";
    row.group = 0;
    EventTrack track;
    for (Ns t = runStart; t < runEnd; t += period)
        track.append(t, t + duration, 1, 0, EventKind::Kernel);
    track.finish();
    row.lanes.push_back(std::move(track));
    m->rows.push_back(std::move(row));
    return m;
}

std::shared_ptr<const TimelineModel> syntheticRun() {
    return kernelRun(kRunStart, kRunEnd, 1'000'000, 500'000);
}

// `rows` streams of the synthetic run's kernels under one group, each row shifted by 100 µs: more rows
// than a 300 px view shows, so a vertical scroll brings new ones into view.
std::shared_ptr<const TimelineModel> manyRows(int rows) {
    auto m = std::make_shared<TimelineModel>(*syntheticRun());
    m->rows.clear();
    for (int r = 0; r < rows; ++r) {
        TimelineRow row;
        row.kind = RowKind::GpuStream;
        row.label = "stream " + std::to_string(r);
        row.group = 0;
        EventTrack track;
        for (Ns t = kRunStart + r * 100'000; t + 500'000 < kRunEnd; t += 1'000'000)
            track.append(t, t + 500'000, 1, 0, EventKind::Kernel);
        track.finish();
        row.lanes.push_back(std::move(track));
        m->rows.push_back(std::move(row));
    }
    return m;
}

// One frame of `v` painted offscreen, in the widget's font as its own paint event; `prims` receives
// paintFrame's count.
QImage paintOffscreen(TimelineView& v, int* prims = nullptr) {
    QImage img(v.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    p.setFont(v.font());
    const int n = v.paintFrame(p);
    if (prims)
        *prims = n;
    return img;
}

void shiftWheel(TimelineView& v, int dy) {
    const QPointF at(v.rowsArea().center());
    QWheelEvent e(at, v.mapToGlobal(at), QPoint(), QPoint(0, dy), Qt::NoButton, Qt::ShiftModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(&v, &e);
}

enum class Gesture {
    DragLater,
    DragEarlier,
    KeyD,
    KeyA,
    AltWheelLater,
    AltWheelEarlier,
    MinimapEnd,
    ZoomOut
};

// One step of `g` on `v`, as the user's input events.
void perform(TimelineView& v, Gesture g) {
    const QRect area = v.rowsArea();
    const QPointF mid(area.center());
    auto mouse = [&v](QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
        QMouseEvent e(type, at, v.mapToGlobal(at), Qt::LeftButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(&v, &e);
    };
    auto drag = [&](QPointF from, QPointF to) {
        mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
        mouse(QEvent::MouseMove, (from + to) / 2, Qt::LeftButton);
        mouse(QEvent::MouseMove, to, Qt::LeftButton);
        mouse(QEvent::MouseButtonRelease, to, Qt::NoButton);
    };
    auto wheel = [&](int dy, Qt::KeyboardModifiers mods) {
        QWheelEvent e(mid, v.mapToGlobal(mid), QPoint(), QPoint(0, dy), Qt::NoButton, mods, Qt::NoScrollPhase,
                      false);
        QApplication::sendEvent(&v, &e);
    };
    switch (g) {
    case Gesture::DragLater: // the events move left: later times come into view
        drag(mid, mid - QPointF(300, 0));
        break;
    case Gesture::DragEarlier:
        drag(mid, mid + QPointF(300, 0));
        break;
    case Gesture::KeyD:
        QTest::keyClick(&v, Qt::Key_D);
        break;
    case Gesture::KeyA:
        QTest::keyClick(&v, Qt::Key_A);
        break;
    case Gesture::AltWheelLater:
        wheel(-120, Qt::AltModifier);
        break;
    case Gesture::AltWheelEarlier:
        wheel(120, Qt::AltModifier);
        break;
    case Gesture::MinimapEnd: { // a click at the minimap's right end centres the view on the run's end
        const QPointF at(area.right(), TimelineView::kRulerHeight + TimelineView::kMinimapHeight / 2);
        mouse(QEvent::MouseButtonPress, at, Qt::LeftButton);
        mouse(QEvent::MouseButtonRelease, at, Qt::NoButton);
        break;
    }
    case Gesture::ZoomOut:
        wheel(-120, Qt::NoModifier);
        break;
    }
}

// `v` at 1000x300 on screen (exposed), showing `m`; false when the window was never exposed.
bool showModel(TimelineView& v, std::shared_ptr<const TimelineModel> m) {
    v.resize(1000, 300);
    v.show();
    if (!QTest::qWaitForWindowExposed(&v))
        return false;
    v.setModel(std::move(m));
    return true;
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void panStopsAtTheRun_data() {
        QTest::addColumn<int>("gesture");
        QTest::addColumn<bool>("towardsEnd"); // else towards the start; ZoomOut: both
        QTest::newRow("drag to later times") << int(Gesture::DragLater) << true;
        QTest::newRow("drag to earlier times") << int(Gesture::DragEarlier) << false;
        QTest::newRow("D key") << int(Gesture::KeyD) << true;
        QTest::newRow("A key") << int(Gesture::KeyA) << false;
        QTest::newRow("Alt+wheel later") << int(Gesture::AltWheelLater) << true;
        QTest::newRow("Alt+wheel earlier") << int(Gesture::AltWheelEarlier) << false;
        QTest::newRow("minimap at the end") << int(Gesture::MinimapEnd) << true;
        QTest::newRow("wheel zoom out") << int(Gesture::ZoomOut) << true;
    }
    // From a 10 ms window in the middle of the run, 60 repetitions of the gesture (each pans 1/8 to 3/8
    // of the view, so without limits they would reach 75+ ms past the run's end): the view ends at the
    // limit (the run's end + 5 %), never beyond, and the run's end (or start) is in view: reachable.
    void panStopsAtTheRun() {
        QFETCH(int, gesture);
        QFETCH(bool, towardsEnd);
        TimelineView v;
        QVERIFY(showModel(v, syntheticRun()));
        v.zoomTo(50'000'000, 60'000'000);
        QVERIFY(v.axis().span() < 20'000'000);
        for (int i = 0; i < 60; ++i)
            perform(v, Gesture(gesture));
        const TimeAxis& a = v.axis();
        const QString where = QStringLiteral("view [%1, %2) ns").arg(a.start()).arg(a.end());
        QVERIFY2(a.start() >= kRunStart - kMargin, qPrintable(where));
        QVERIFY2(a.end() <= kRunEnd + kMargin, qPrintable(where));
        if (Gesture(gesture) == Gesture::ZoomOut) { // capped at the whole run: the fit view, exactly
            QCOMPARE(a.start(), kRunStart - kMargin);
            QCOMPARE(a.end(), kRunEnd + kMargin);
        } else if (towardsEnd) {
            QVERIFY2(a.end() >= kRunEnd, qPrintable(where));
            QVERIFY2(a.span() < 20'000'000, qPrintable(where)); // a pan never zooms
        } else {
            QVERIFY2(a.start() <= kRunStart, qPrintable(where));
            QVERIFY2(a.span() < 20'000'000, qPrintable(where));
        }
    }

    // Zoomed out as far as it goes, a drag moves nothing: the whole run is in view and stays there.
    void wholeRunDoesNotPan() {
        TimelineView v;
        QVERIFY(showModel(v, syntheticRun()));
        const TimeAxis fit = v.axis();
        QCOMPARE(fit.start(), kRunStart - kMargin);
        QCOMPARE(fit.end(), kRunEnd + kMargin);
        perform(v, Gesture::DragLater);
        perform(v, Gesture::KeyA);
        QCOMPARE(v.axis().start(), fit.start());
        QCOMPARE(v.axis().span(), fit.span());
    }

    // A Shift+drag that starts in the margin before the run (the fit view shows 5 % either side) selects
    // from the run's start, and one that ends past the run stops at its end: a range never reports time
    // outside the run ("-396 ms → 5.19 s" in the Xvfb drive).
    void rangeStaysInTheRun() {
        TimelineView v;
        QVERIFY(showModel(v, syntheticRun()));
        const QRect area = v.rowsArea();
        const int y = area.top() + 30;
        auto xAt = [&](Ns t) { return v.labelWidth() + int(std::lround(v.axis().x(t))); };
        QSignalSpy spy(&v, &TimelineView::rangeSelected);
        auto shiftDrag = [&](Ns from, Ns to) {
            QTest::mousePress(&v, Qt::LeftButton, Qt::ShiftModifier, QPoint(xAt(from), y));
            QMouseEvent move(QEvent::MouseMove, QPointF(xAt(to), y), v.mapToGlobal(QPointF(xAt(to), y)),
                             Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
            QApplication::sendEvent(&v, &move);
            QTest::mouseRelease(&v, Qt::LeftButton, Qt::ShiftModifier, QPoint(xAt(to), y));
        };
        shiftDrag(kRunStart - 3'000'000, kRunStart + 40'000'000);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(v.rangeStart(), kRunStart);
        QVERIFY(std::abs(v.rangeEnd() - (kRunStart + 40'000'000)) < v.axis().span() / 500);
        shiftDrag(kRunStart + 60'000'000, kRunEnd + 4'000'000);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(v.rangeEnd(), kRunEnd);
    }

    void rulerLabel_data() {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<qint64>("magnitude");
        QTest::addColumn<QString>("label");
        QTest::newRow("half-ms ticks in a 40 ms view")
            << qint64(37'500'000) << qint64(500'000) << qint64(40'000'000) << QString::fromUtf8("37.5 ms");
        QTest::newRow("whole ms ticks")
            << qint64(38'000'000) << qint64(2'000'000) << qint64(40'000'000) << QString::fromUtf8("38 ms");
        QTest::newRow("origin shares the unit")
            << qint64(0) << qint64(500'000) << qint64(40'000'000) << QString::fromUtf8("0.0 ms");
        QTest::newRow("deep zoom far into the run")
            << qint64(37'500'100) << qint64(100) << qint64(37'501'000) << QString::fromUtf8("37.5001 ms");
        QTest::newRow("microseconds")
            << qint64(1'500) << qint64(500) << qint64(3'000) << QString::fromUtf8("1.5 µs");
        QTest::newRow("seconds") << qint64(2'000'000'000) << qint64(1'000'000'000) << qint64(3'000'000'000)
                                 << QString::fromUtf8("2 s");
        QTest::newRow("nanoseconds") << qint64(40) << qint64(20) << qint64(900) << QString::fromUtf8("40 ns");
    }
    void rulerLabel() {
        QFETCH(qint64, t);
        QFETCH(qint64, step);
        QFETCH(qint64, magnitude);
        QFETCH(QString, label);
        QCOMPARE(TimelineView::rulerLabel(t, step, magnitude), label);
    }

    void sliceLabel_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("width");
        QTest::newRow("fits") << "gemm" << 200;
        QTest::newRow("long kernel name") << QString(300, QLatin1Char('k')) + "_sm90" << 120;
        QTest::newRow("narrow") << "ncclDevKernel_AllReduce_Sum_bf16_RING_LL" << 30;
        QTest::newRow("too narrow for anything") << "ncclDevKernel" << 3;
    }
    void sliceLabel() {
        QFETCH(QString, name);
        QFETCH(int, width);
        const QFontMetrics fm(QApplication::font());
        const QString text = TimelineView::sliceLabel(name, fm, width);
        QVERIFY(fm.horizontalAdvance(text) <= width);
        if (fm.horizontalAdvance(name) <= width) {
            QCOMPARE(text, name);
        } else if (!text.isEmpty()) {
            QVERIFY2(text.endsWith(QChar(0x2026)), qPrintable(text)); // elided, never cut mid-glyph
            QVERIFY(name.startsWith(text.chopped(1)));
            QVERIFY(text.size() > 1);
        }
    }

    // Issue 15.5: back-to-back kernels of one category, each wide enough for its own rectangle, stay
    // apart: every slice leaves its last pixel column unpainted. Scanning the lane's middle line, the
    // slices' colour forms one run of pixels per kernel (one run for all ten without the separator).
    void adjacentSameColourSlicesSeparated() {
        constexpr int kKernels = 10;
        constexpr Ns kEach = 10'000'000;
        const auto m = kernelRun(0, kKernels * kEach, kEach, kEach); // each ends where the next starts
        TimelineView v;
        QVERIFY(showModel(v, m));
        const QImage img = v.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const qreal dpr = img.devicePixelRatio();
        const QRect area = v.rowsArea();
        const QColor fill = TimelinePalette::styleColor(QStringLiteral("gemm"));
        // The line of the rows area with the most pixels of the slices' colour is the lane's middle.
        int bestY = -1, bestCount = 0;
        for (int y = int(area.top() * dpr); y < int(area.bottom() * dpr) && y < img.height(); ++y) {
            int count = 0;
            for (int x = int(area.left() * dpr); x < img.width(); ++x)
                count += img.pixelColor(x, y) == fill;
            if (count > bestCount)
                bestCount = count, bestY = y;
        }
        QVERIFY2(bestY >= 0, "no slice drawn in the slices' colour");
        int runs = 0;
        bool inRun = false;
        for (int x = int(area.left() * dpr); x < img.width(); ++x) {
            const bool on = img.pixelColor(x, bestY) == fill;
            runs += on && !inRun;
            inRun = on;
        }
        QCOMPARE(runs, kKernels);
    }

    // A repaint that keeps the axis (selection, range, loading box, hover) renders no row; a vertical
    // scroll renders only the rows coming into view; a zoom renders every row in view again.
    void rowPicturesAreReused() {
        TimelineView v;
        QVERIFY(showModel(v, manyRows(60)));
        int prims = 0;
        paintOffscreen(v, &prims);
        QVERIFY(prims > 0);
        const std::uint64_t first = v.rowRenders();
        const int inView = v.rowsArea().height() / TimelineView::kLaneHeight; // rows of one lane each
        QVERIFY(first >= std::uint64_t(inView));
        QVERIFY(first < 60);
        v.setSelected(EventRef{2, 0, 10});
        paintOffscreen(v, &prims);
        QCOMPARE(prims, 0);
        v.setRange(0, kRunStart + 10'000'000, kRunStart + 20'000'000);
        v.setLoadingProgress(0.5, QStringLiteral("Loading"));
        paintOffscreen(v);
        v.setLoadingProgress(-1);
        v.repaint();
        QCOMPARE(v.rowRenders(), first);
        shiftWheel(v, -3 * TimelineView::kLaneHeight); // three rows further down
        paintOffscreen(v);
        const std::uint64_t scrolled = v.rowRenders() - first;
        QVERIFY2(scrolled >= 3 && scrolled <= 4, qPrintable(QString::number(scrolled)));
        v.zoomTo(30'000'000, 40'000'000);
        paintOffscreen(v, &prims);
        QVERIFY(prims > 0);
        QVERIFY(v.rowRenders() - first - scrolled >= std::uint64_t(inView));
    }

    // A frame made of cached and newly rendered rows equals one rendered from scratch, pixel for pixel.
    void cachedFrameEqualsFreshFrame() {
        const auto m = manyRows(60);
        TimelineView cached, fresh;
        for (TimelineView* v : {&cached, &fresh}) {
            v->resize(1000, 300);
            v->show();
            QVERIFY(QTest::qWaitForWindowExposed(v));
            v->setModel(m);
            v->zoomTo(30'000'000, 40'000'000);
        }
        paintOffscreen(cached);
        shiftWheel(cached, -5 * TimelineView::kLaneHeight);
        cached.setSelected(EventRef{7, 0, 32});
        shiftWheel(fresh, -5 * TimelineView::kLaneHeight);
        fresh.setSelected(EventRef{7, 0, 32});
        QCOMPARE(paintOffscreen(cached), paintOffscreen(fresh));
    }

    // The view's own history keys: Alt+Left and the mouse's back button return to the view before a
    // zoom to an event, Alt+Right and the forward button go there again.
    void backAndForwardInTheView() {
        TimelineView v;
        QVERIFY(showModel(v, syntheticRun()));
        const TimeAxis fit = v.axis();
        QVERIFY(!v.navigator()->canGoBack());
        v.zoomTo(50'000'000, 60'000'000);
        const TimeAxis zoomed = v.axis();
        QSignalSpy changed(&v, &TimelineView::axisChanged);
        QTest::keyClick(&v, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(v.axis(), fit);
        QTest::keyClick(&v, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(v.axis(), zoomed);
        QTest::mouseClick(&v, Qt::BackButton, {}, v.rowsArea().center());
        QCOMPARE(v.axis(), fit);
        QTest::mouseClick(&v, Qt::ForwardButton, {}, v.rowsArea().center());
        QCOMPARE(v.axis(), zoomed);
        QCOMPARE(changed.count(), 4); // the page keeps a compare view in step
        // Two W presses are two gestures (each ends at its key release): two steps back to the zoom.
        QTest::keyClick(&v, Qt::Key_W);
        QTest::keyClick(&v, Qt::Key_W);
        QTest::keyClick(&v, Qt::Key_Left, Qt::AltModifier);
        QTest::keyClick(&v, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(v.axis(), zoomed);
    }

    // Stepping from event to event (Nsight Systems / Perfetto users missed it): Right and ] select the
    // next kernel of the selected one's lane, Left and [ the previous one; an event outside the window
    // brings the window to it (same span, centred on it); the ends of the lane and no selection do nothing.
    // The synthetic run's kernel i runs [1 + i, 1.5 + i) ms.
    void stepSelectionAlongTheLane() {
        TimelineView v;
        QVERIFY(showModel(v, syntheticRun()));
        v.zoomTo(50'000'000, 52'000'000); // kernels 49 and 50 wholly in view, with the 5 % margin
        const Ns span = v.axis().end() - v.axis().start();
        QSignalSpy selected(&v, &TimelineView::selectionChanged);
        QTest::keyClick(&v, Qt::Key_Right); // no selection: nothing
        QCOMPARE(selected.count(), 0);
        v.setSelected(EventRef{0, 0, 49});
        QTest::keyClick(&v, Qt::Key_Right);
        QCOMPARE(v.selected(), (EventRef{0, 0, 50}));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).value<EventRef>(), (EventRef{0, 0, 50}));
        QCOMPARE(v.axis().start(), 49'900'000); // 51-51.5 ms already in view: the window stays
        QTest::keyClick(&v, Qt::Key_BracketRight);
        // Kernel 51, [52, 52.5) ms, ends past the window's end (52.1 ms): centred on 52.25 ms, same span.
        QCOMPARE(v.selected(), (EventRef{0, 0, 51}));
        QCOMPARE(v.axis().end() - v.axis().start(), span);
        QCOMPARE(v.axis().start() + span / 2, 52'250'000);
        QTest::keyClick(&v, Qt::Key_Left);
        QTest::keyClick(&v, Qt::Key_BracketLeft);
        QCOMPARE(v.selected(), (EventRef{0, 0, 49}));
        v.setSelected(EventRef{0, 0, 99}); // the lane's last kernel
        QVERIFY(!v.stepSelection(true));
        QCOMPARE(v.selected(), (EventRef{0, 0, 99}));
        v.setSelected(EventRef{0, 0, 0});
        QVERIFY(!v.stepSelection(false));
        QVERIFY(v.stepSelection(true));
        QCOMPARE(v.selected(), (EventRef{0, 0, 1}));
    }

    // Expand all / collapse all rank groups: the context menu's actions and their keys E / C.
    void expandAndCollapseAllGroups() {
        auto m = std::make_shared<TimelineModel>(*syntheticRun());
        m->groups.push_back(TimelineGroup{"rank 1", -1, 0, 1, true});
        TimelineRow second = m->rows.front();
        second.group = 1;
        m->rows.push_back(second);
        TimelineView v;
        QVERIFY(showModel(v, m));
        QVERIFY(!v.isCollapsed(0) && v.isCollapsed(1));
        QCOMPARE(v.collapseAllAction()->shortcut(), QKeySequence(Qt::Key_C));
        QCOMPARE(v.expandAllAction()->shortcut(), QKeySequence(Qt::Key_E));
        QVERIFY(v.actions().contains(v.collapseAllAction()) && v.actions().contains(v.expandAllAction()));
        v.collapseAllAction()->trigger();
        QVERIFY(v.isCollapsed(0) && v.isCollapsed(1));
        QCOMPARE(v.laneY(0, 0), -1);
        v.expandAllAction()->trigger();
        QVERIFY(!v.isCollapsed(0) && !v.isCollapsed(1));
        QVERIFY(v.laneY(1, 0) >= 0);
        // The keys, through the shortcut system, while the view has focus.
        v.activateWindow();
        v.setFocus();
        QVERIFY(QTest::qWaitForWindowActive(&v));
        QTest::keyClick(&v, Qt::Key_C);
        QVERIFY(v.isCollapsed(0) && v.isCollapsed(1));
        QTest::keyClick(&v, Qt::Key_E);
        QVERIFY(!v.isCollapsed(0) && !v.isCollapsed(1));
    }

    // The jump from a collective call (Ranks page, Collectives tab): only the call's members' rank groups
    // open, every other rank's closed, side by side; a sub-group (a rank's host threads) keeps its state;
    // ranks the model lacks are ignored, and no rank asked (or none the model has) changes nothing. Ranks
    // 0..5, rank 2 with a sub-group; the call's members 1, 4 and 9 (9 absent).
    void openOnlyRanksOpensTheCallsRanks_data() {
        QTest::addColumn<QList<int>>("members");
        QTest::addColumn<QList<int>>("open"); // the ranks whose groups are open afterwards
        QTest::newRow("two of six, one absent") << QList<int>{4, 1, 9} << QList<int>{1, 4};
        QTest::newRow("a closed one opened") << QList<int>{5} << QList<int>{5};
        QTest::newRow("all") << QList<int>{0, 1, 2, 3, 4, 5} << QList<int>{0, 1, 2, 3, 4, 5};
        QTest::newRow("none asked: unchanged") << QList<int>{} << QList<int>{0, 1, 2, 3, 4};
        QTest::newRow("only absent ranks: unchanged") << QList<int>{7} << QList<int>{0, 1, 2, 3, 4};
    }
    void openOnlyRanksOpensTheCallsRanks() {
        QFETCH(QList<int>, members);
        QFETCH(QList<int>, open);
        auto m = std::make_shared<TimelineModel>(*syntheticRun());
        m->groups.clear();
        m->rows.clear();
        const TimelineRow row = syntheticRun()->rows.front();
        for (int r = 0; r < 6; ++r) { // rank 5 starts closed
            m->groups.push_back(TimelineGroup{"rank " + std::to_string(r), -1, 0, r, r == 5});
            TimelineRow lane = row;
            lane.group = static_cast<int>(m->groups.size()) - 1;
            m->rows.push_back(lane);
        }
        m->groups.push_back(TimelineGroup{"threads", 2, 1, 2, true}); // rank 2's sub-group, closed
        TimelineRow sub = row;
        sub.group = 6;
        m->rows.push_back(sub);
        TimelineView v;
        QVERIFY(showModel(v, m));
        v.openOnlyRanks(std::vector<std::int32_t>(members.begin(), members.end()));
        for (int r = 0; r < 6; ++r)
            QVERIFY2(v.isCollapsed(r) == !open.contains(r), qPrintable(QString("rank %1").arg(r)));
        QVERIFY(v.isCollapsed(6));
        // The open ranks' lanes are laid out, one above the other; the closed ones' are not.
        int lastY = -1;
        for (int r = 0; r < 6; ++r) {
            const int y = v.laneY(r, 0);
            QCOMPARE(y >= 0, open.contains(r));
            if (y >= 0) {
                QVERIFY(y > lastY);
                lastY = y;
            }
        }
    }

    void searchHighlightIsNoCategoryColour() {
        const QColor mark = TimelinePalette::searchHighlight();
        QStringList styles = {"runtime API",
                              "driver API",
                              "cpu_op",
                              "user_annotation",
                              "python_function",
                              "nvtx",
                              "cpu range",
                              "gpu annotation",
                              "step",
                              "",
                              "communication",
                              "memory",
                              "idle",
                              "overlap"};
        for (const std::string& c : cnp::CategoryRules::defaults().computePriority())
            styles << QString::fromStdString(c);
        for (const QString& s : styles) {
            const QColor c = TimelinePalette::styleColor(s);
            const int dist = std::abs(c.red() - mark.red()) + std::abs(c.green() - mark.green()) +
                             std::abs(c.blue() - mark.blue());
            QVERIFY2(dist > 150,
                     qPrintable(QStringLiteral("%1 is %2 from the search mark").arg(s).arg(dist)));
        }
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
