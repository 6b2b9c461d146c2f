// Seeded percentile bootstrap: medians, determinism, bounds, and significance of ratios.
#include "metrics/Bootstrap.h"

#include <QtTest>

using namespace cnp;

class TestBootstrap : public QObject {
    Q_OBJECT
private slots:
    void median_data() {
        QTest::addColumn<std::vector<double>>("values");
        QTest::addColumn<double>("expected");
        QTest::newRow("empty") << std::vector<double>{} << 0.0;
        QTest::newRow("one") << std::vector<double>{7} << 7.0;
        QTest::newRow("odd unsorted") << std::vector<double>{3, 1, 2} << 2.0;
        QTest::newRow("even") << std::vector<double>{4, 1, 3, 2} << 2.5;
        QTest::newRow("duplicates") << std::vector<double>{5, 5, 1, 9} << 5.0;
    }
    void median() {
        QFETCH(std::vector<double>, values);
        QTEST(Bootstrap::median(values), "expected");
    }

    void deterministic() {
        std::vector<double> v;
        for (int i = 0; i < 37; ++i)
            v.push_back((i * 7919) % 101);
        const Bootstrap a(42), b(42);
        const auto ca = a.medianCi(v), cb = b.medianCi(v);
        QCOMPARE(ca.lo, cb.lo);
        QCOMPARE(ca.hi, cb.hi);
        // Calls do not influence each other: the same call again gives the same answer.
        (void)a.ratioOfMediansCi(v, v);
        QCOMPARE(a.medianCi(v).lo, ca.lo);
    }

    void boundsContainMedian() {
        std::vector<double> v;
        for (int i = 1; i <= 100; ++i)
            v.push_back(i);
        const auto ci = Bootstrap().medianCi(v);
        QVERIFY(ci.lo <= 50.5 && 50.5 <= ci.hi);
        QVERIFY(ci.lo >= 1 && ci.hi <= 100);
        // The median of 100 distinct values: the 95% interval spans roughly +-10 ranks.
        QVERIFY2(ci.lo >= 38 && ci.hi <= 63, qPrintable(QStringLiteral("%1 %2").arg(ci.lo).arg(ci.hi)));
    }

    void constantData() {
        const auto ci = Bootstrap().medianCi({3, 3, 3});
        QCOMPARE(ci.lo, 3.0);
        QCOMPARE(ci.hi, 3.0);
        const auto r = Bootstrap().ratioOfMediansCi({6, 6, 6}, {3, 3, 3});
        QCOMPARE(r.lo, 2.0);
        QCOMPARE(r.hi, 2.0);
        QVERIFY(r.excludes(1.0));
        const auto same = Bootstrap().ratioOfMediansCi({3, 3}, {3, 3});
        QVERIFY(!same.excludes(1.0));
    }

    void overlappingSamplesNotSignificant() {
        // Two noisy samples from the same spread: the ratio CI must include 1.
        const std::vector<double> a{100, 104, 98, 101, 99, 103, 97, 102};
        const std::vector<double> b{101, 99, 103, 98, 100, 102, 104, 97};
        QVERIFY(!Bootstrap().ratioOfMediansCi(a, b).excludes(1.0));
    }

    void rejectsBadParameters() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Bootstrap(1, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Bootstrap(1, 1000, 1.0));
    }
};

QTEST_APPLESS_MAIN(TestBootstrap)
#include "tst_bootstrap.moc"
