// Launch queue length of one stream (metrics/StreamQueueLength.h, docs/metrics.md "Streams"), on
// hand-built operations whose series and statistics are worked out on paper in each row.
#include "metrics/StreamQueueLength.h"

#include <QtTest>

using namespace cnp;

using Ops = std::vector<StreamQueueLength::Operation>;
using Series = std::vector<std::pair<Ns, std::int64_t>>;
Q_DECLARE_METATYPE(Ops)
Q_DECLARE_METATYPE(Series)

class TestStreamQueueLength : public QObject {
    Q_OBJECT

private slots:
    void queue_data() {
        QTest::addColumn<Ops>("ops");
        QTest::addColumn<Series>("series");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<double>("mean");
        QTest::newRow("none") << Ops{} << Series{} << qint64{0} << 0.0;
        // Launched at 0, 10, 20; start at 100, 200, 300 (given out of order). Lengths 1, 2, 3, 2, 1, 0;
        // over [0, 300]: 1x10 + 2x10 + 3x80 + 2x100 + 1x100 = 570 -> mean 1.9.
        QTest::newRow("three queued")
            << Ops{{20, 300}, {0, 100}, {10, 200}}
            << Series{{0, 1}, {10, 2}, {20, 3}, {100, 2}, {200, 1}, {300, 0}} << qint64{3} << 1.9;
        // A starts at 50, the moment B is launched: the start comes first, so the length stays 1 (no
        // point at 50) and never reaches 2. Over [0, 60]: 1 x 60 -> mean 1.
        QTest::newRow("start before launch at a tie")
            << Ops{{0, 50}, {50, 60}} << Series{{0, 1}, {60, 0}} << qint64{1} << 1.0;
        // Launch stamped after the start (skew): taken as launched at the start; zero span -> mean 0.
        QTest::newRow("launch after start") << Ops{{70, 40}} << Series{{40, 0}} << qint64{0} << 0.0;
        // Two launched together at 0, both start at 40: length 2 over [0, 40] -> mean 2.
        QTest::newRow("same times") << Ops{{0, 40}, {0, 40}} << Series{{0, 2}, {40, 0}} << qint64{2} << 2.0;
    }
    void queue() {
        QFETCH(Ops, ops);
        QFETCH(Series, series);
        QFETCH(qint64, max);
        QFETCH(double, mean);
        const StreamQueueLength q(ops);
        QCOMPARE(q.series(), series);
        QCOMPARE(q.stats().max, max);
        QCOMPARE(q.stats().mean, mean);
        QCOMPARE(q.stats().operations, static_cast<std::int64_t>(ops.size()));
    }
};

QTEST_GUILESS_MAIN(TestStreamQueueLength)
#include "tst_streamqueuelength.moc"
