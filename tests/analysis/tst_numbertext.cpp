// NumberText: exact JSON number text -> scaled integers (Kineto us -> ns) and integers.
// Expected values are worked out by hand from the decimal text (shift the point 3 places, round
// half away from zero on the first dropped digit).
#include "import/common/NumberText.h"

#include <QtTest>

using namespace cnp;

class TestNumberText : public QObject {
    Q_OBJECT
private slots:
    void micros_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("integer") << "1682725897226747" << true << qint64(1682725897226747000);
        QTest::newRow("3 decimals") << "5139643954087.710" << true << qint64(5139643954087710);
        QTest::newRow("2 decimals") << "5139643954087.71" << true << qint64(5139643954087710);
        QTest::newRow("1 decimal") << "68.0" << true << qint64(68000);
        QTest::newRow("4 decimals round up") << "1.0005" << true << qint64(1001);
        QTest::newRow("4 decimals round down") << "1.0004" << true << qint64(1000);
        QTest::newRow("many decimals") << "0.00049999999" << true << qint64(0);
        QTest::newRow("negative rounds away") << "-1.0005" << true << qint64(-1001);
        QTest::newRow("zero") << "0" << true << qint64(0);
        QTest::newRow("negative zero") << "-0.0" << true << qint64(0);
        QTest::newRow("exponent") << "1.5e3" << true << qint64(1500000);
        QTest::newRow("negative exponent") << "15E-4" << true << qint64(2); // 0.0015 us = 1.5 ns -> 2
        QTest::newRow("leading zeros") << "000012.5" << true << qint64(12500);
        // A double cannot hold this exactly (17 significant digits), the text route can.
        QTest::newRow("beyond double") << "9007199254740.993" << true << qint64(9007199254740993);
        QTest::newRow("int64 max us overflows") << "9223372036854775807" << false << qint64(0);
        QTest::newRow("largest in range") << "9223372036854775.807" << true << qint64(9223372036854775807);
        QTest::newRow("huge exponent") << "1e400" << false << qint64(0);
        QTest::newRow("tiny exponent") << "1e-400" << true << qint64(0);
        QTest::newRow("zero huge exponent") << "0e999999" << true << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
        QTest::newRow("minus only") << "-" << false << qint64(0);
        QTest::newRow("dot only") << "." << false << qint64(0);
        QTest::newRow("NaN") << "NaN" << false << qint64(0);
        QTest::newRow("Infinity") << "-Infinity" << false << qint64(0);
        QTest::newRow("trailing junk") << "12x" << false << qint64(0);
        QTest::newRow("exponent without digits") << "1e" << false << qint64(0);
    }

    void micros() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, ns);
        const QByteArray t = text.toLatin1();
        std::int64_t out = 77;
        QCOMPARE(parseMicrosAsNanos(std::string_view(t.constData(), static_cast<std::size_t>(t.size())), out),
                 ok);
        QCOMPARE(static_cast<qint64>(out), ok ? ns : qint64(77)); // untouched on failure
    }

    void integers_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::newRow("plain") << "20650" << true << qint64(20650);
        QTest::newRow("negative") << "-1" << true << qint64(-1);
        QTest::newRow("zero fraction") << "7.000" << true << qint64(7);
        QTest::newRow("exponent") << "2e3" << true << qint64(2000);
        QTest::newRow("hex (ROCm stream)") << "0x0" << true << qint64(0);
        QTest::newRow("hex pointer") << "0x55674ecd4180" << true << qint64(0x55674ecd4180);
        QTest::newRow("fraction") << "7.5" << false << qint64(0);
        QTest::newRow("word") << "abc" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
        QTest::newRow("overflow") << "99999999999999999999" << false << qint64(0);
    }

    void integers() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        const QByteArray t = text.toLatin1();
        std::int64_t out = 0;
        QCOMPARE(parseInteger(std::string_view(t.constData(), static_cast<std::size_t>(t.size())), out), ok);
        if (ok)
            QCOMPARE(static_cast<qint64>(out), value);
    }

    void doubles() {
        double d = 0;
        QVERIFY(parseDouble("1968.540675844806", d));
        QCOMPARE(d, 1968.540675844806);
        QVERIFY(!parseDouble("NaN", d));
        QVERIFY(!parseDouble("1e999", d));
        QVERIFY(!parseDouble("", d));
    }
};

QTEST_GUILESS_MAIN(TestNumberText)
#include "tst_numbertext.moc"
