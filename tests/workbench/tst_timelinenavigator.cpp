// Issue 26.5, the timeline's one navigation authority: the visible window, the run's limits (the run
// +- 5 % of its span) and a browser-like history. Discrete navigations push an entry, a gesture's
// continuous changes share one, back/forward restore windows, a new navigation drops the entries
// ahead, the history keeps at most kHistoryLimit entries; wheel zoom keeps the time under the cursor.
#include "timeline/TimelineNavigator.h"

#include <QSignalSpy>
#include <QtTest>

using cnp::Ns;
using cnp::wb::TimelineNavigator;
using Window = TimelineNavigator::Window;

namespace {

// A run of 100 ms from 1 ms (absolute ns) over 1000 px: the limits are [-4 ms, 106 ms].
constexpr Ns kRunStart = 1'000'000, kRunEnd = 101'000'000, kMargin = 5'000'000;
constexpr int kWidth = 1000;

// A navigator showing the whole run, its history that one entry.
void fitted(TimelineNavigator& n) {
    n.setWidth(kWidth);
    n.setRun(kRunStart, kRunEnd);
    n.fitAll();
    n.clearHistory();
}

Window shown(const TimelineNavigator& n) {
    return {n.axis().start(), n.axis().end()};
}

// One step of a named operation; "pan" and "zoom" are continuous, the others discrete.
void step(TimelineNavigator& n, const QString& op) {
    if (op == QLatin1String("zoom"))
        n.zoomAt(kWidth / 2.0, 0.8);
    else if (op == QLatin1String("pan"))
        n.panPixels(50);
    else if (op == QLatin1String("zoomTo"))
        n.zoomTo(40'000'000, 50'000'000);
    else if (op == QLatin1String("showWindow"))
        n.showWindow(20'000'000, 30'000'000);
    else if (op == QLatin1String("fit"))
        n.fitAll();
    else if (op == QLatin1String("end"))
        n.endGesture();
    else
        QFAIL(qPrintable(QStringLiteral("unknown op %1").arg(op)));
}

} // namespace

class TestTimelineNavigator : public QObject {
    Q_OBJECT
private slots:
    // The entries a sequence of operations leaves, from a fitted run (1 entry).
    void historyEntries_data() {
        QTest::addColumn<QStringList>("ops");
        QTest::addColumn<int>("entries");
        QTest::newRow("nothing") << QStringList{} << 1;
        QTest::newRow("a jump pushes") << QStringList{"zoomTo"} << 2;
        QTest::newRow("two jumps push twice") << QStringList{"zoomTo", "showWindow"} << 3;
        QTest::newRow("fit when fitted is no move") << QStringList{"fit"} << 1;
        QTest::newRow("one wheel gesture is one entry") << QStringList{"zoom", "zoom", "zoom"} << 2;
        QTest::newRow("zoom then pan in one gesture") << QStringList{"zoom", "pan", "pan"} << 2;
        QTest::newRow("two gestures") << QStringList{"zoom", "end", "zoom"} << 3;
        QTest::newRow("a jump ends the gesture") << QStringList{"zoom", "zoomTo", "zoom"} << 4;
        QTest::newRow("a pan of the whole run moves nothing") << QStringList{"pan", "pan"} << 1;
    }
    void historyEntries() {
        QFETCH(QStringList, ops);
        QFETCH(int, entries);
        TimelineNavigator n;
        fitted(n);
        for (const QString& op : ops)
            step(n, op);
        QCOMPARE(int(n.history().size()), entries);
        QCOMPARE(n.historyIndex(), n.history().size() - 1);
        QCOMPARE(n.history()[n.historyIndex()], shown(n)); // the current entry is the window in view
    }

    // Back and forward restore the windows, exactly, and say when there is nowhere to go.
    void backAndForward() {
        TimelineNavigator n;
        fitted(n);
        const Window fit = shown(n);
        QVERIFY(!n.canGoBack());
        QVERIFY(!n.canGoForward());
        QVERIFY(!n.back());
        n.zoomTo(40'000'000, 50'000'000);
        const Window jump = shown(n);
        QCOMPARE(jump, (Window{40'000'000 - 500'000, 50'000'000 + 500'000}));
        n.zoomAt(100, 0.5); // a gesture: zoom, then pan
        n.panPixels(-30);
        n.endGesture();
        const Window gesture = shown(n);
        QSignalSpy range(&n, &TimelineNavigator::rangeChanged);
        QVERIFY(n.back());
        QCOMPARE(shown(n), jump);
        QVERIFY(n.back());
        QCOMPARE(shown(n), fit);
        QVERIFY(!n.canGoBack());
        QVERIFY(n.canGoForward());
        QCOMPARE(range.count(), 2);
        QVERIFY(n.forward());
        QVERIFY(n.forward());
        QCOMPARE(shown(n), gesture);
        QVERIFY(!n.forward());
    }

    // A navigation after going back drops the entries ahead (a browser's forward list).
    void newNavigationTruncatesForward() {
        TimelineNavigator n;
        fitted(n);
        n.zoomTo(40'000'000, 50'000'000);
        n.zoomTo(60'000'000, 70'000'000);
        QVERIFY(n.back());
        QVERIFY(n.back());
        QCOMPARE(n.history().size(), std::size_t(3));
        n.panPixels(0); // no move: nothing changes
        QVERIFY(n.canGoForward());
        n.showWindow(10'000'000, 12'000'000);
        QVERIFY(!n.canGoForward());
        QCOMPARE(n.history().size(), std::size_t(2));
        QVERIFY(n.back());
        QCOMPARE(shown(n), (Window{kRunStart - kMargin, kRunEnd + kMargin}));
    }

    // A gesture that starts after going back replaces the forward entries with its own, and its first
    // move is what back() returns to.
    void gestureAfterBack() {
        TimelineNavigator n;
        fitted(n);
        n.zoomTo(40'000'000, 50'000'000);
        const Window jump = shown(n);
        n.zoomTo(60'000'000, 70'000'000);
        QVERIFY(n.back());
        n.panPixels(10);
        n.panPixels(10);
        QVERIFY(!n.canGoForward());
        QCOMPARE(n.history().size(), std::size_t(3));
        QVERIFY(n.back());
        QCOMPARE(shown(n), jump);
    }

    // At most kHistoryLimit entries: the oldest go, the newest stay reachable.
    void historyIsBounded() {
        TimelineNavigator n;
        fitted(n);
        const int jumps = int(TimelineNavigator::kHistoryLimit) + 20;
        for (int k = 0; k < jumps; ++k)
            n.showWindow(kRunStart + k * 100'000, kRunStart + k * 100'000 + 50'000);
        QCOMPARE(n.history().size(), TimelineNavigator::kHistoryLimit);
        int backs = 0;
        while (n.back())
            ++backs;
        QCOMPARE(backs, int(TimelineNavigator::kHistoryLimit) - 1);
        const Ns oldest = kRunStart + Ns(jumps - int(TimelineNavigator::kHistoryLimit)) * 100'000;
        QCOMPARE(shown(n).start, oldest);
    }

    // follow() (a compare view kept in step) replaces the current entry: no push, back unchanged.
    void followReplacesTheEntry() {
        TimelineNavigator n;
        fitted(n);
        n.zoomTo(40'000'000, 50'000'000);
        n.follow(41'000'000, 51'000'000);
        QCOMPARE(n.history().size(), std::size_t(2));
        QCOMPARE(n.history().back(), (Window{41'000'000, 51'000'000}));
        QVERIFY(n.back());
        QVERIFY(n.forward());
        QCOMPARE(shown(n), (Window{41'000'000, 51'000'000}));
    }

    void clampsToTheRun_data() {
        QTest::addColumn<QString>("op");
        QTest::newRow("pan later") << "later";
        QTest::newRow("pan earlier") << "earlier";
        QTest::newRow("zoom out") << "out";
        QTest::newRow("centre past the end") << "centre";
    }
    // Continuous changes stop at the run +- 5 %; zooming out ends at exactly that window.
    void clampsToTheRun() {
        QFETCH(QString, op);
        TimelineNavigator n;
        fitted(n);
        n.zoomTo(50'000'000, 55'000'000);
        for (int k = 0; k < 200; ++k) {
            if (op == QLatin1String("later"))
                n.panPixels(300);
            else if (op == QLatin1String("earlier"))
                n.panPixels(-300);
            else if (op == QLatin1String("out"))
                n.zoomAt(10, 1.25);
            else
                n.centreOn(kRunEnd + 50'000'000);
        }
        QVERIFY(n.axis().start() >= kRunStart - kMargin);
        QVERIFY(n.axis().end() <= kRunEnd + kMargin);
        if (op == QLatin1String("out")) {
            QCOMPARE(shown(n), (Window{kRunStart - kMargin, kRunEnd + kMargin}));
        } else {
            QVERIFY(n.axis().span() < 10'000'000); // a pan never zooms
            QVERIFY(op == QLatin1String("earlier") ? n.axis().start() == kRunStart - kMargin
                                                   : n.axis().end() == kRunEnd + kMargin);
        }
    }

    // A discrete navigation is not clamped: a jump's context may reach past the run.
    void jumpsAreNotClamped() {
        TimelineNavigator n;
        fitted(n);
        n.zoomTo(kRunEnd - 1'000'000, kRunEnd + 20'000'000);
        QVERIFY(n.axis().end() > kRunEnd + kMargin);
        QCOMPARE(n.timeInRun(kRunEnd + 7), kRunEnd);
        QCOMPARE(n.timeInRun(kRunStart - 7), kRunStart);
    }

    void zoomKeepsTheTimeUnderTheCursor_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("factor");
        QTest::newRow("in at a third") << kWidth / 3.0 << 0.8;
        QTest::newRow("in at the left edge") << 0.0 << 0.5;
        QTest::newRow("out near the right") << kWidth * 0.9 << 1.25;
        QTest::newRow("deep in") << 123.0 << 0.01;
    }
    void zoomKeepsTheTimeUnderTheCursor() {
        QFETCH(double, x);
        QFETCH(double, factor);
        TimelineNavigator n;
        fitted(n);
        n.zoomTo(30'000'000, 60'000'000);
        const Ns before = n.axis().timeAt(x);
        const Ns span = n.axis().span();
        n.zoomAt(x, factor);
        QCOMPARE(n.axis().span(), static_cast<Ns>(std::llround(span * factor)));
        QVERIFY(std::llabs(n.axis().timeAt(x) - before) <= 1);
    }

    // historyChanged tells when canGoBack/canGoForward may differ; a resize is no navigation.
    void signalsSayWhatChanged() {
        TimelineNavigator n;
        fitted(n);
        QSignalSpy history(&n, &TimelineNavigator::historyChanged);
        QSignalSpy range(&n, &TimelineNavigator::rangeChanged);
        n.setWidth(500);
        QCOMPARE(history.count(), 0);
        QCOMPARE(range.count(), 0);
        n.zoomTo(1'000'000, 2'000'000);
        QCOMPARE(history.count(), 1);
        QCOMPARE(range.count(), 1);
        n.panPixels(5);
        n.panPixels(5);
        QCOMPARE(history.count(), 2); // the gesture's first move pushed; the second updated in place
        QCOMPARE(range.count(), 3);
    }
};

QTEST_MAIN(TestTimelineNavigator)
#include "tst_timelinenavigator.moc"
