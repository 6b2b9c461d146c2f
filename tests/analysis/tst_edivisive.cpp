// EDivisive (docs/metrics.md, "Change points"): the energy statistic of a split by hand, single and
// multiple change points, no change point on constant or short series, the permutation p-value's floor.
#include "metrics/EDivisive.h"

#include <QtTest>

#include <cmath>

using namespace cnp;

class TestEDivisive : public QObject {
    Q_OBJECT
private slots:
    // {1, 2, 4, 8}, min segment 2: the only split is at 2. Between: (3 + 7 + 2 + 6) / 4 = 4.5; within X 1,
    // within Y 4; Q = 2 x 2 / 4 x (2 x 4.5 - 1 - 4) = 4.
    void statisticByHand() {
        const auto s = EDivisive::bestSplit({1, 2, 4, 8}, 0, 4, 2);
        QCOMPARE(s.at, std::size_t{2});
        QCOMPARE(s.q, 4.0);
    }

    // {0 x 4, 10 x 4}: the split at 4 has between-mean 10, within 0: Q = 16 / 8 x 20 = 40.
    void stepStatistic() {
        const std::vector<double> v{0, 0, 0, 0, 10, 10, 10, 10};
        const auto s = EDivisive::bestSplit(v, 0, v.size(), 2);
        QCOMPARE(s.at, std::size_t{4});
        QCOMPARE(s.q, 40.0);
        QCOMPARE(EDivisive::bestSplit(v, 0, 3, 2).at, std::size_t{0}); // 3 points: no split of 2 + 2
    }

    void detect_data() {
        QTest::addColumn<QList<double>>("series");
        QTest::addColumn<QList<int>>("expected");
        QTest::newRow("one step of 4 + 4") << QList<double>{0, 0, 0, 0, 10, 10, 10, 10} << QList<int>{4};
        QTest::newRow("two steps") << QList<double>{0, 0, 0, 0, 0, 10, 10, 10, 10, 10, 20, 20, 20, 20, 20}
                                   << QList<int>{5, 10};
        QTest::newRow("noisy step at 6")
            << QList<double>{100, 101, 99, 100.5, 99.5, 100, 105, 106, 104, 105.5, 104.5, 105}
            << QList<int>{6};
        QTest::newRow("constant") << QList<double>{3, 3, 3, 3, 3, 3, 3, 3} << QList<int>{};
        QTest::newRow("too short") << QList<double>{0, 0, 10} << QList<int>{};
        QTest::newRow("noise only") << QList<double>{100, 101, 99, 100.5, 99.5, 100, 100.8, 99.2, 100.3, 99.7}
                                    << QList<int>{};
        // 3 + 3 points: only 20 arrangements, so p >= 2/20 = 0.1 > 0.05: too short to be significant.
        QTest::newRow("3 + 3 is not enough") << QList<double>{0, 0, 0, 10, 10, 10} << QList<int>{};
    }
    void detect() {
        QFETCH(QList<double>, series);
        QFETCH(QList<int>, expected);
        const std::vector<double> v(series.begin(), series.end());
        const auto found = EDivisive().detect(v);
        QList<int> at;
        for (const auto& c : found) {
            at << static_cast<int>(c.index);
            QVERIFY(c.pValue <= 0.05);
        }
        QCOMPARE(at, expected);
    }

    // The change point's segment means, and a p-value at the permutation floor's order for a clean step.
    void changePointFigures() {
        const auto found = EDivisive().detect({0, 0, 0, 0, 10, 10, 10, 10});
        QCOMPARE(found.size(), std::size_t{1});
        QCOMPARE(found[0].meanBefore, 0.0);
        QCOMPARE(found[0].meanAfter, 10.0);
        QCOMPARE(found[0].statistic, 40.0);
        // 2 of the 70 arrangements of 4 + 4 reach Q = 40: p ~ 0.029 (+- permutation noise).
        QVERIFY(found[0].pValue > 0.005 && found[0].pValue < 0.06);
    }

    void deterministic() {
        const std::vector<double> v{100, 101, 99, 100.5, 99.5, 100, 105, 106, 104, 105.5, 104.5, 105};
        const auto a = EDivisive().detect(v), b = EDivisive().detect(v);
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            QCOMPARE(a[i].pValue, b[i].pValue);
    }
};

QTEST_APPLESS_MAIN(TestEDivisive)
#include "tst_edivisive.moc"
