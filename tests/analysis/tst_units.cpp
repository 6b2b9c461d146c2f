// The one set of human-readable numbers (core/Units.h) shared by the CLI, the reports and the GUI:
// a table of hand-written expectations per function (docs/formatting.md states the style).
#include "core/Units.h"

#include <QtTest>

#include <cstdint>
#include <limits>

using namespace cnp;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void duration_data() {
        QTest::addColumn<double>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0 ns";
        QTest::newRow("ns") << 850.0 << "850 ns";
        QTest::newRow("ns rounds") << 37.4 << "37 ns";
        QTest::newRow("us") << 1234.0 << "1.23 µs";
        QTest::newRow("us exact") << 1500.0 << "1.50 µs";
        QTest::newRow("tens of us") << 12345.0 << "12.3 µs";
        QTest::newRow("hundreds of us") << 850'000.0 << "850 µs";
        QTest::newRow("ms") << 55'280'000.0 << "55.3 ms";
        QTest::newRow("ms 3 digits") << 104'040'000.0 << "104 ms";
        QTest::newRow("s") << 2.5e9 << "2.50 s";
        QTest::newRow("minutes stay s") << 125e9 << "125 s";
        QTest::newRow("negative") << -2'000'000.0 << "-2.00 ms";
        QTest::newRow("negative us") << -1500.0 << "-1.50 µs";
        // Rounding never prints 4 digits or "1000": the next unit takes over.
        QTest::newRow("999.6 ns is 1.00 us") << 999.6 << "1.00 µs";
        QTest::newRow("999.4 ns stays ns") << 999.4 << "999 ns";
        QTest::newRow("9.996 us is 10.0 us") << 9'996.0 << "10.0 µs";
        QTest::newRow("99.96 ms is 100 ms") << 99'960'000.0 << "100 ms";
        QTest::newRow("999.7 us is 1.00 ms") << 999'700.0 << "1.00 ms";
        QTest::newRow("999.8 ms is 1.00 s") << 999'800'000.0 << "1.00 s";
    }
    void duration() {
        QFETCH(double, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(units::duration(ns)), text);
    }

    void durationExact_data() {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << qint64(999) << "999 ns";
        QTest::newRow("us") << qint64(1'500) << "1.500 µs (1,500 ns)";
        QTest::newRow("ms") << qint64(53'551'234) << "53.551234 ms (53,551,234 ns)";
        QTest::newRow("s") << qint64(2'000'000'001) << "2.000000001 s (2,000,000,001 ns)";
        QTest::newRow("negative ms") << qint64(-2'500'000) << "-2.500000 ms (-2,500,000 ns)";
    }
    void durationExact() {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(units::durationExact(ns)), text);
    }

    void timeScale_data() {
        QTest::addColumn<double>("maxNs");
        QTest::addColumn<double>("nsPerUnit");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("ns") << 999.0 << 1.0 << "ns";
        QTest::newRow("us") << 1000.0 << 1e3 << "µs";
        QTest::newRow("ms") << 40e6 << 1e6 << "ms";
        QTest::newRow("s") << 1e9 << 1e9 << "s";
        QTest::newRow("negative") << -5e6 << 1e6 << "ms";
    }
    void timeScale() {
        QFETCH(double, maxNs);
        QFETCH(double, nsPerUnit);
        QFETCH(QString, suffix);
        const units::TimeScale s = units::timeScale(maxNs);
        QCOMPARE(s.nsPerUnit, nsPerUnit);
        QCOMPARE(QString::fromUtf8(s.suffix), suffix);
    }

    void others_data() {
        QTest::addColumn<QString>("got");
        QTest::addColumn<QString>("want");
        auto row = [](const char* name, const std::string& got, const char* want) {
            QTest::newRow(name) << QString::fromStdString(got) << QString::fromUtf8(want);
        };
        row("rate M", units::rate(1'024'000, "tokens/s"), "1.02M tokens/s");
        row("rate k", units::rate(148190.3, "tokens/s"), "148.2k tokens/s");
        row("rate low k", units::rate(5123.4, "tokens/s"), "5.12k tokens/s");
        row("rate small", units::rate(18.5, "steps/s"), "18.50 steps/s");
        row("rate zero", units::rate(0, "steps/s"), "0.00 steps/s");
        row("percent", units::percent(0.1234), "12.3%");
        row("percent whole", units::percent(1.0), "100.0%");
        row("percent 2 decimals", units::percent(0.001234, 2), "0.12%");
        row("percent 0 decimals", units::percent(0.42, 0), "42%");
        row("percent negative", units::percent(-0.05), "-5.0%");
        row("ratio", units::ratio(1.3201), "1.32×");
        row("ratio below 1", units::ratio(0.987), "0.99×");
        row("ratio with CI", units::ratioWithCi(1.32, true, 1.3, 1.34), "1.32× [1.30×, 1.34×]");
        row("ratio without CI", units::ratioWithCi(1.32, false, 0, 0), "1.32× (too few steps for a CI)");
        row("count", units::count(1234567), "1,234,567");
        row("count small", units::count(12), "12");
        row("count thousand", units::count(1000), "1,000");
        row("count zero", units::count(0), "0");
        row("count negative", units::count(-1000), "-1,000");
        row("count min", units::count(std::numeric_limits<std::int64_t>::min()),
            "-9,223,372,036,854,775,808");
        row("bytes", units::bytes(50331648), "48.0 MiB");
        row("bytes small", units::bytes(4), "4 B");
        row("bytes KiB", units::bytes(1536), "1.5 KiB");
        row("bytes GiB", units::bytes(3.0 * 1024 * 1024 * 1024), "3.0 GiB");
        row("fixed unit", units::durationIn(55'300'000, 1e6, 2), "55.30");
        row("fixed", units::fixed(2.5, 3), "2.500");
        row("fixed rounds", units::fixed(0.125, 0), "0");
    }
    void others() {
        QFETCH(QString, got);
        QFETCH(QString, want);
        QCOMPARE(got, want);
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
