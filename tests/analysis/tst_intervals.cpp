// Interval algebra: unions, intersections, differences on hand-made sets (expected values by hand).
#include "core/IdRange.h"
#include "metrics/Intervals.h"

#include <QtTest>

#include <limits>

using namespace cnp;
Q_DECLARE_METATYPE(cnp::IntervalSet)

namespace {
QString show(const IntervalSet& s) {
    QStringList p;
    for (const auto& i : s)
        p << QStringLiteral("[%1,%2)").arg(i.start).arg(i.end);
    return p.join(' ');
}
} // namespace

class TestIntervals : public QObject {
    Q_OBJECT
private slots:
    void unionOf_data() {
        QTest::addColumn<IntervalSet>("in");
        QTest::addColumn<IntervalSet>("expected");
        QTest::newRow("empty") << IntervalSet{} << IntervalSet{};
        QTest::newRow("zero-length dropped") << IntervalSet{{5, 5}, {7, 3}} << IntervalSet{};
        QTest::newRow("disjoint unsorted") << IntervalSet{{10, 20}, {0, 5}} << IntervalSet{{0, 5}, {10, 20}};
        QTest::newRow("touching merge") << IntervalSet{{0, 10}, {10, 20}} << IntervalSet{{0, 20}};
        QTest::newRow("nested") << IntervalSet{{0, 100}, {10, 20}, {30, 40}} << IntervalSet{{0, 100}};
        QTest::newRow("overlap chain")
            << IntervalSet{{0, 10}, {5, 15}, {14, 30}, {40, 50}} << IntervalSet{{0, 30}, {40, 50}};
        QTest::newRow("negative times") << IntervalSet{{-10, -5}, {-6, 0}} << IntervalSet{{-10, 0}};
    }
    void unionOf() {
        QFETCH(IntervalSet, in);
        QFETCH(IntervalSet, expected);
        QCOMPARE(show(cnp::unionOf(in)), show(expected));
    }

    // Issue 33.4: lengths, totals and id-range sizes of extreme values (read from a crafted workspace)
    // overflowed int64 (UBSan aborts in Interval, Intervals and IdRange); they saturate at INT64_MAX.
    void extremeValuesSaturate_data() {
        QTest::addColumn<IntervalSet>("set");
        QTest::addColumn<qint64>("first"); // an IdRange [first, last]
        QTest::addColumn<qint64>("last");
        QTest::addColumn<qint64>("length"); // set's totalLength
        QTest::addColumn<qint64>("size");   // the range's size
        constexpr qint64 kMin = std::numeric_limits<qint64>::min(), kMax = std::numeric_limits<qint64>::max();
        QTest::newRow("whole int64") << IntervalSet{{kMin, kMax}} << kMin << kMax << kMax << kMax;
        QTest::newRow("two halves") << IntervalSet{{kMin, -1}, {0, kMax}} << qint64(0) << kMax << kMax
                                    << kMax;
        QTest::newRow("ordinary") << IntervalSet{{-10, 0}, {5, 7}} << qint64(-3) << qint64(3) << qint64(12)
                                  << qint64(7);
    }
    void extremeValuesSaturate() {
        QFETCH(IntervalSet, set);
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QFETCH(qint64, length);
        QFETCH(qint64, size);
        QCOMPARE(qint64(totalLength(set)), length);
        QCOMPARE(qint64(IdRange{first, last}.size()), size);
    }

    void setOps_data() {
        QTest::addColumn<IntervalSet>("a");
        QTest::addColumn<IntervalSet>("b");
        QTest::addColumn<IntervalSet>("inter");
        QTest::addColumn<IntervalSet>("diff");
        QTest::newRow("disjoint") << IntervalSet{{0, 10}} << IntervalSet{{20, 30}} << IntervalSet{}
                                  << IntervalSet{{0, 10}};
        QTest::newRow("touching") << IntervalSet{{0, 10}} << IntervalSet{{10, 30}} << IntervalSet{}
                                  << IntervalSet{{0, 10}};
        QTest::newRow("b inside a") << IntervalSet{{0, 100}} << IntervalSet{{10, 20}, {50, 60}}
                                    << IntervalSet{{10, 20}, {50, 60}}
                                    << IntervalSet{{0, 10}, {20, 50}, {60, 100}};
        QTest::newRow("a inside b") << IntervalSet{{10, 20}} << IntervalSet{{0, 100}} << IntervalSet{{10, 20}}
                                    << IntervalSet{};
        QTest::newRow("partial both sides")
            << IntervalSet{{0, 10}, {20, 30}} << IntervalSet{{5, 25}} << IntervalSet{{5, 10}, {20, 25}}
            << IntervalSet{{0, 5}, {25, 30}};
        QTest::newRow("empty b") << IntervalSet{{0, 10}} << IntervalSet{} << IntervalSet{}
                                 << IntervalSet{{0, 10}};
    }
    void setOps() {
        QFETCH(IntervalSet, a);
        QFETCH(IntervalSet, b);
        QFETCH(IntervalSet, inter);
        QFETCH(IntervalSet, diff);
        QCOMPARE(show(intersect(a, b)), show(inter));
        QCOMPARE(show(subtract(a, b)), show(diff));
        // |A| = |A ∩ B| + |A \ B| exactly; |A ∪ B| = |A| + |B| - |A ∩ B|.
        QCOMPARE(totalLength(a), totalLength(inter) + totalLength(diff));
        QCOMPARE(totalLength(unite(a, b)), totalLength(a) + totalLength(b) - totalLength(inter));
    }

    void clipToWindow() {
        const IntervalSet s{{0, 10}, {20, 30}, {40, 50}};
        QCOMPARE(show(clip(s, {5, 45})), QStringLiteral("[5,10) [20,30) [40,45)"));
        QCOMPARE(show(clip(s, {10, 20})), QString());
        QCOMPARE(show(clip(s, {7, 7})), QString());
    }
};

QTEST_APPLESS_MAIN(TestIntervals)
#include "tst_intervals.moc"
