// Readable units chosen for display (values worked out by hand).
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
    QTest::newRow("us") << 850'000.0 << "850.0 µs";
    QTest::newRow("us small") << 1'500.0 << "1.500 µs";
    QTest::newRow("ms") << 53'551'000.0 << "53.55 ms";
    QTest::newRow("ms 3 digits") << 104'040'000.0 << "104.0 ms";
    QTest::newRow("s") << 2'500'000'000.0 << "2.500 s";
    QTest::newRow("negative ms") << -2'500'000.0 << "-2.500 ms";
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
    QCOMPARE(UnitFormat::rate(152976.4, QStringLiteral("tokens/s")), QStringLiteral("152,976 tokens/s"));
    QCOMPARE(UnitFormat::rate(18.25, QStringLiteral("steps/s")), QStringLiteral("18.25 steps/s"));
    QCOMPARE(UnitFormat::ratio(1.3214), QStringLiteral("1.321×"));
}

QTEST_MAIN(TestUnitFormat)
#include "tst_unitformat.moc"
