// Human-readable units shared by CLI, reports and GUI.
#include "core/Units.h"

#include <QtTest>

using namespace cnp;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void duration_data() {
        QTest::addColumn<double>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << 850.0 << "850 ns";
        QTest::newRow("us") << 1234.0 << "1.23 µs";
        QTest::newRow("tens of us") << 12345.0 << "12.3 µs";
        QTest::newRow("ms") << 55'280'000.0 << "55.3 ms";
        QTest::newRow("s") << 2.5e9 << "2.50 s";
        QTest::newRow("negative") << -2'000'000.0 << "-2.00 ms";
    }
    void duration() {
        QFETCH(double, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(units::duration(ns)), text);
    }
    void others_data() {
        QTest::addColumn<QString>("got");
        QTest::addColumn<QString>("want");
        QTest::newRow("rate k") << QString::fromStdString(units::rate(148190.3, "tokens/s"))
                                << "148.2k tokens/s";
        QTest::newRow("rate M") << QString::fromStdString(units::rate(1'024'000, "tokens/s"))
                                << "1.02M tokens/s";
        QTest::newRow("rate small") << QString::fromStdString(units::rate(18.5, "steps/s"))
                                    << "18.50 steps/s";
        QTest::newRow("percent") << QString::fromStdString(units::percent(0.1234)) << "12.3%";
        QTest::newRow("ratio") << QString::fromStdString(units::ratio(1.3201)) << "1.32×";
        QTest::newRow("count") << QString::fromStdString(units::count(1234567)) << "1,234,567";
        QTest::newRow("count small") << QString::fromStdString(units::count(12)) << "12";
        QTest::newRow("count negative") << QString::fromStdString(units::count(-1000)) << "-1,000";
        QTest::newRow("bytes") << QString::fromStdString(units::bytes(50331648)) << "48.0 MiB";
        QTest::newRow("bytes small") << QString::fromStdString(units::bytes(4)) << "4 B";
        QTest::newRow("fixed unit") << QString::fromStdString(units::durationIn(55'300'000, 1e6, 2))
                                    << "55.30";
    }
    void others() {
        QFETCH(QString, got);
        QFETCH(QString, want);
        QCOMPARE(got, want);
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
