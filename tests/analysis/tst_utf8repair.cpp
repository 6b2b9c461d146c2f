// Utf8: validity check and repair (one U+FFFD per maximal ill-formed subpart, Unicode 15 §3.9).
// Expected outputs written by hand from the byte sequences.
#include "core/Utf8.h"

#include <QtTest>

using namespace cnp;

class TestUtf8Repair : public QObject {
    Q_OBJECT
private slots:
    void repair_data() {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QByteArray>("out");
        const QByteArray R = "\xEF\xBF\xBD"; // U+FFFD
        QTest::newRow("ascii") << QByteArray("void at::native::kernel<float>(int)") << true
                               << QByteArray("void at::native::kernel<float>(int)");
        QTest::newRow("empty") << QByteArray() << true << QByteArray();
        QTest::newRow("2-byte") << QByteArray("caf\xC3\xA9") << true << QByteArray("caf\xC3\xA9");
        QTest::newRow("3-byte") << QByteArray("\xE2\x82\xAC") << true << QByteArray("\xE2\x82\xAC");
        QTest::newRow("4-byte") << QByteArray("\xF0\x9F\x98\x80") << true << QByteArray("\xF0\x9F\x98\x80");
        QTest::newRow("lone continuation") << QByteArray("a\x80z") << false << QByteArray("a" + R + "z");
        QTest::newRow("bad lead bytes") << QByteArray("\xFF\xFE") << false << R + R;
        QTest::newRow("overlong C0") << QByteArray("\xC0\xAF") << false << R + R;
        QTest::newRow("overlong E0") << QByteArray("\xE0\x80\xAF") << false << R + R + R;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << false << R + R + R;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << false << R + R + R + R;
        QTest::newRow("truncated 3-byte") << QByteArray("\xE2\x82z") << false << QByteArray(R + "z");
        QTest::newRow("truncated at end") << QByteArray("ab\xF0\x9F\x98") << false << QByteArray("ab" + R);
        QTest::newRow("bad after 16 ascii")
            << QByteArray("0123456789abcdef\xC3(") << false << QByteArray("0123456789abcdef" + R + "(");
    }

    void repair() {
        QFETCH(QByteArray, in);
        QFETCH(bool, valid);
        QFETCH(QByteArray, out);
        const std::string_view v(in.constData(), static_cast<std::size_t>(in.size()));
        QCOMPARE(isValidUtf8(v), valid);
        const std::string r = repairUtf8(v);
        QCOMPARE(QByteArray(r.data(), static_cast<qsizetype>(r.size())), out);
        QVERIFY(isValidUtf8(r));
    }
};

QTEST_GUILESS_MAIN(TestUtf8Repair)
#include "tst_utf8repair.moc"
