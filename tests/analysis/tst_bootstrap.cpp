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

    // Three runs of one configuration at 10, 12 and 14 (50 steps each). Pooling the 150 steps hides the
    // run-to-run spread: the resampled median is 12 unless >= 75 of 150 draws hit one run (a 4-sigma
    // event), so the single-level CI is [12, 12]. Resampling runs first: two or more draws of the first
    // run (probability 7/27 = 26%) give a median of 10, of the last run 14, so the 2.5th/97.5th
    // percentiles are 10 and 14.
    void hierarchicalCarriesRunVariance() {
        const std::vector<std::vector<double>> runs{
            std::vector<double>(50, 10.0), std::vector<double>(50, 12.0), std::vector<double>(50, 14.0)};
        std::vector<double> pooled;
        for (const auto& r : runs)
            pooled.insert(pooled.end(), r.begin(), r.end());
        const Bootstrap bs;
        const auto flat = bs.medianCi(pooled);
        QCOMPARE(flat.lo, 12.0);
        QCOMPARE(flat.hi, 12.0);
        const auto h = bs.medianCi(runs);
        QCOMPARE(h.lo, 10.0);
        QCOMPARE(h.hi, 14.0);
        // One run: the same as the single-level bootstrap (same draws).
        const std::vector<double> one{3, 1, 4, 1, 5, 9, 2, 6};
        const auto a = bs.medianCi(one), b = bs.medianCi(std::vector<std::vector<double>>{one});
        QCOMPARE(a.lo, b.lo);
        QCOMPARE(a.hi, b.hi);
        // Ratio of two such configurations: 1 lies inside the hierarchical CI.
        QVERIFY(!bs.ratioOfMediansCi(runs, runs).excludes(1.0));
    }
};

QTEST_APPLESS_MAIN(TestBootstrap)
#include "tst_bootstrap.moc"
