// Timeline data side: time <-> pixel mapping, lane assignment, draw lists ("nothing disappears",
// <= 2 primitives per column) and hit-testing at every zoom level, checked against brute force.
#include "timeline/EventTrack.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineBuilder.h"

#include <QtTest>

#include <random>

using namespace cnp;
using namespace cnp::timeline;

namespace {

struct Ev {
    Ns s, e;
};

// Random non-overlapping events: gaps and durations spread over five orders of magnitude, some
// zero-length, so every zoom level sees both wide and sub-pixel events.
std::vector<Ev> randomLane(std::mt19937_64& rng, int n, Ns origin) {
    std::vector<Ev> ev;
    Ns t = origin;
    std::uniform_int_distribution<int> mag(0, 5);
    for (int i = 0; i < n; ++i) {
        auto draw = [&]() {
            Ns p = 1;
            for (int k = mag(rng); k > 0; --k)
                p *= 10;
            return static_cast<Ns>(rng() % static_cast<std::uint64_t>(p));
        };
        t += draw();
        const Ns d = (rng() % 10 == 0) ? 0 : draw();
        ev.push_back({t, t + d});
        t += std::max<Ns>(d, 1);
    }
    return ev;
}

EventTrack trackOf(const std::vector<Ev>& ev) {
    EventTrack tr;
    for (std::size_t i = 0; i < ev.size(); ++i)
        tr.append(ev[i].s, ev[i].e, 0, static_cast<std::uint8_t>(i % 3), EventKind::Kernel);
    tr.finish();
    return tr;
}

// Columns [c0, c1] of the view touched by event e (both clipped), or false when e is not in view.
bool columnsOf(const TimeAxis& ax, const Ev& e, std::int64_t& c0, std::int64_t& c1) {
    const Ns eff = std::max(e.e, e.s + 1);
    if (eff <= ax.start() || e.s >= ax.end())
        return false;
    c0 = std::max<std::int64_t>(0, ax.column(e.s));
    c1 = std::min<std::int64_t>(ax.width() - 1, ax.column(eff - 1));
    return true;
}

} // namespace

class TestTimelineTrack : public QObject {
    Q_OBJECT
private slots:
    void columnMapping_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("span");
        QTest::addColumn<int>("width");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("column");
        // By hand: column = floor((t - start) * width / span).
        QTest::newRow("origin") << qint64(1000) << qint64(1000) << 100 << qint64(1000) << qint64(0);
        QTest::newRow("last ns of col 0") << qint64(1000) << qint64(1000) << 100 << qint64(1009) << qint64(0);
        QTest::newRow("first ns of col 1")
            << qint64(1000) << qint64(1000) << 100 << qint64(1010) << qint64(1);
        QTest::newRow("right edge") << qint64(1000) << qint64(1000) << 100 << qint64(2000) << qint64(100);
        QTest::newRow("before") << qint64(1000) << qint64(1000) << 100 << qint64(999) << qint64(-1);
        QTest::newRow("3 ns over 7 px") << qint64(0) << qint64(16) << 7 << qint64(3) << qint64(1); // 21/16
        QTest::newRow("epoch ns, 1920 px") << qint64(1764460800000000000) << qint64(10000000) << 1920
                                           << qint64(1764460800005000000) << qint64(960);
    }
    void columnMapping() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(int, width);
        QFETCH(qint64, t);
        QFETCH(qint64, column);
        const TimeAxis ax(start, span, width);
        QCOMPARE(ax.column(t), column);
        // Exact inverse at column borders.
        const Ns f = ax.firstTimeOfColumn(column);
        QCOMPARE(ax.column(f), column);
        QCOMPARE(ax.column(f - 1), column - 1);
        QVERIFY(std::abs(ax.x(t) - static_cast<double>(t - start) * width / span) < 1e-9);
    }

    void zoomKeepsCursorTime() {
        TimeAxis ax(1764460800000000000, 1000000000, 1920);
        const Ns before = ax.timeAt(480);
        ax.zoomAt(480, 0.5);
        QCOMPARE(ax.span(), Ns(500000000));
        QVERIFY(std::llabs(ax.timeAt(480) - before) <= 1);
        ax.zoomAt(0, 1e-12); // clamped to the deepest zoom
        QCOMPARE(ax.span(), TimeAxis::kMinSpanNs);
        ax.panPixels(1920);
        QCOMPARE(ax.span(), TimeAxis::kMinSpanNs);
    }

    void laneAssignment() {
        // CPU ranges, by hand: [0,100) holds [10,50) which holds [20,30); [60,90) is a sibling of
        // [10,50); [95,120) overlaps [0,100) partially and so goes one lane down.
        TimelineBuilder b;
        const auto st = b.internStyle("cpu_op");
        const std::pair<Ns, Ns> ev[] = {{60, 90}, {0, 100}, {20, 30}, {10, 50}, {95, 120}};
        for (auto [s, e] : ev)
            b.addCpuEvent(0, 1, 7, EventKind::CpuRange, s, e, 0, st);
        const TimelineModel m = b.build();
        QCOMPARE(m.rows.size(), std::size_t(1));
        const auto& lanes = m.rows[0].lanes;
        QCOMPARE(lanes.size(), std::size_t(3));
        QCOMPARE(lanes[0].size(), std::size_t(1));
        QCOMPARE(lanes[0].start(0), Ns(0));
        QCOMPARE(lanes[1].size(), std::size_t(3));
        QCOMPARE(lanes[1].start(0), Ns(10));
        QCOMPARE(lanes[1].start(1), Ns(60));
        QCOMPARE(lanes[1].start(2), Ns(95));
        QCOMPARE(lanes[2].size(), std::size_t(1));
        QCOMPARE(lanes[2].start(0), Ns(20));
        QCOMPARE(m.runStart, Ns(0));
        QCOMPARE(m.runEnd, Ns(120));
        QCOMPARE(m.rows[0].label, std::string("Thread 7 (pid 1)"));
    }

    void nothingDisappears_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("width");
        for (int seed = 1; seed <= 6; ++seed)
            for (int width : {1, 7, 640, 1920})
                QTest::newRow(qPrintable(QString("seed %1, %2 px").arg(seed).arg(width))) << seed << width;
    }
    void nothingDisappears() {
        QFETCH(int, seed);
        QFETCH(int, width);
        std::mt19937_64 rng(seed);
        const std::vector<Ev> ev = randomLane(rng, 3000, 1764460800000000000);
        const EventTrack tr = trackOf(ev);
        const Ns lo = ev.front().s, hi = ev.back().e + 1;
        // Every power-of-two zoom level from the whole lane down to the deepest, at random offsets.
        for (Ns span = hi - lo; span >= TimeAxis::kMinSpanNs; span /= 2) {
            for (int rep = 0; rep < 3; ++rep) {
                const Ns start =
                    lo - span / 4 + static_cast<Ns>(rng() % static_cast<std::uint64_t>(hi - lo + span / 2));
                const TimeAxis ax(start, span, width);
                std::vector<DrawSpan> spans;
                tr.buildSpans(ax, spans);
                std::vector<int> perColumn(width, 0);
                for (const auto& s : spans) {
                    QVERIFY(s.x0 >= 0 && s.x1 < width && s.x0 <= s.x1);
                    for (int c = s.x0; c <= s.x1; ++c)
                        ++perColumn[c];
                }
                std::vector<bool> holds(width, false);
                for (const Ev& e : ev) {
                    std::int64_t c0, c1;
                    if (columnsOf(ax, e, c0, c1))
                        for (auto c = c0; c <= c1; ++c)
                            holds[c] = true;
                }
                for (int c = 0; c < width; ++c) {
                    if (holds[c] && perColumn[c] == 0)
                        QFAIL(qPrintable(QString("column %1 holds an event but nothing is drawn (span %2 ns)")
                                             .arg(c)
                                             .arg(span)));
                    QVERIFY2(holds[c] || perColumn[c] == 0, "a column without events is painted");
                    QVERIFY2(perColumn[c] <= 2, "more than 2 primitives in a column");
                }
            }
        }
    }

    void hitTestEveryZoomLevel() {
        std::mt19937_64 rng(42);
        const std::vector<Ev> ev = randomLane(rng, 500, 1000);
        const EventTrack tr = trackOf(ev);
        const Ns lo = ev.front().s, hi = ev.back().e + 1;
        const int width = 300;
        for (Ns span = hi - lo; span >= TimeAxis::kMinSpanNs; span /= 2) {
            const Ns start = lo + static_cast<Ns>(rng() % static_cast<std::uint64_t>(hi - lo));
            const TimeAxis ax(start, span, width);
            for (int c = 0; c < width; ++c) {
                bool any = false;
                for (const Ev& e : ev) {
                    std::int64_t c0, c1;
                    if (columnsOf(ax, e, c0, c1) && c0 <= c && c <= c1)
                        any = true;
                }
                const std::int64_t hit = tr.hitTest(ax, c);
                QCOMPARE(hit >= 0, any);
                if (hit >= 0) {
                    std::int64_t c0, c1;
                    QVERIFY(columnsOf(ax, ev[hit], c0, c1) && c0 <= c && c <= c1);
                }
                // With an exact time inside an event, that event wins.
                const Ns mid = ax.firstTimeOfColumn(c);
                const std::int64_t exact = tr.hitTest(ax, c, mid);
                for (std::size_t k = 0; k < ev.size(); ++k)
                    if (ev[k].s <= mid && mid < std::max(ev[k].e, ev[k].s + 1))
                        QCOMPARE(exact, std::int64_t(k));
            }
        }
    }

    void busyAndDominantStyle() {
        // 40 events of 10 ns every 20 ns; styles 0,1,2 cycling; event 5 is 100 ns long (style 2).
        EventTrack tr;
        Ns t = 0;
        for (int i = 0; i < 40; ++i) {
            const Ns d = i == 5 ? 100 : 10;
            tr.append(t, t + d, 0, static_cast<std::uint8_t>(i % 3), EventKind::Kernel);
            t += d + 10;
        }
        tr.finish();
        QCOMPARE(tr.busy(0, 40), Ns(39 * 10 + 100));
        QCOMPARE(tr.busy(5, 6), Ns(100));
        QCOMPARE(int(tr.dominantStyle(0, 10)), 2);
        QCOMPARE(int(tr.dominantStyle(6, 9)), 0); // styles 0,1,2 at 10 ns each: first wins
        QCOMPARE(tr.firstEndingAfter(15), std::size_t(1));
        QCOMPARE(tr.firstStartingAtOrAfter(15), std::size_t(1));
        QVERIFY(tr.memoryBytes() < 40 * 64);
    }
};

QTEST_GUILESS_MAIN(TestTimelineTrack)
#include "tst_timeline_track.moc"
