// The GUI's QString face of cnp::units: the same text as the CLI and the reports (docs/formatting.md),
// UTF-8 ("µs", "×") intact through the conversion. Values worked out by hand.
#include "UnitFormat.h"

#include <QtTest>

using namespace cnp::wb;

class TestUnitFormat : public QObject {
    Q_OBJECT
private slots:
    void duration_data();
    void duration();
    void exact();
};

void TestUnitFormat::duration_data() {
    QTest::addColumn<double>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("ns") << 37.0 << "37 ns";
    QTest::newRow("us") << 850'000.0 << "850 µs";
    QTest::newRow("us small") << 1'500.0 << "1.50 µs";
    QTest::newRow("ms") << 53'551'000.0 << "53.6 ms";
    QTest::newRow("ms 3 digits") << 104'040'000.0 << "104 ms";
    QTest::newRow("s") << 2'500'000'000.0 << "2.50 s";
    QTest::newRow("negative ms") << -2'500'000.0 << "-2.50 ms";
}

void TestUnitFormat::duration() {
    QFETCH(double, ns);
    QFETCH(QString, text);
    QCOMPARE(UnitFormat::duration(ns), text);
}

void TestUnitFormat::exact() {
    QCOMPARE(UnitFormat::durationExact(53'551'234), QStringLiteral("53.551234 ms (53,551,234 ns)"));
    QCOMPARE(UnitFormat::durationExact(999), QStringLiteral("999 ns"));
    QCOMPARE(UnitFormat::integer(1234567), QStringLiteral("1,234,567"));
    QCOMPARE(UnitFormat::rate(152976.4, QStringLiteral("tokens/s")), QStringLiteral("153.0k tokens/s"));
    QCOMPARE(UnitFormat::rate(18.25, QStringLiteral("steps/s")), QStringLiteral("18.25 steps/s"));
    QCOMPARE(UnitFormat::ratio(1.3214), QStringLiteral("1.32×"));
    QCOMPARE(UnitFormat::ratioWithCi(1.3214, true, 1.3, 1.34), QStringLiteral("1.32× [1.30×, 1.34×]"));
    QCOMPARE(UnitFormat::percent(0.1234), QStringLiteral("12.3%"));
    QCOMPARE(UnitFormat::bytes(49152), QStringLiteral("48.0 KiB"));
    QCOMPARE(UnitFormat::scaleFor(850'000).suffix, QStringLiteral("µs"));
    QCOMPARE(UnitFormat::scaleFor(850'000).nsPerUnit, 1e3);
}

QTEST_MAIN(TestUnitFormat)
#include "tst_unitformat.moc"
