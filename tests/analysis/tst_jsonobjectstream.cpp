// JsonObjectStream frames concatenated JSON objects as kubectl's watch prints them. Every case is fed whole
// and in chunks of 1, 2, 3 and 7 bytes (so every split point inside strings, escapes and nesting occurs);
// the objects expected are written out by hand.
#include "launch/JsonObjectStream.h"

#include <QtTest>

using cnp::launch::JsonObjectStream;

class TestJsonObjectStream : public QObject {
    Q_OBJECT

    static QStringList split(const QByteArray& input, int chunk, JsonObjectStream& s) {
        QStringList out;
        for (qsizetype i = 0; i < input.size(); i += chunk) {
            s.feed(std::string_view(input.constData() + i, std::min<qsizetype>(chunk, input.size() - i)));
            while (auto o = s.next())
                out << QString::fromStdString(*o);
        }
        return out;
    }

private slots:
    void frames_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("objects");
        QTest::addColumn<int>("skipped");
        QTest::newRow("compact lines") << QByteArray("{\"type\":\"ADDED\"}\n{\"type\":\"MODIFIED\"}\n")
                                       << QStringList{"{\"type\":\"ADDED\"}", "{\"type\":\"MODIFIED\"}"} << 0;
        QTest::newRow("pretty, nested")
            << QByteArray("{\n  \"a\": {\n    \"b\": [1, {\"c\": 2}]\n  }\n}\n{}")
            << QStringList{"{\n  \"a\": {\n    \"b\": [1, {\"c\": 2}]\n  }\n}", "{}"} << 0;
        QTest::newRow("back to back")
            << QByteArray("{\"a\":1}{\"b\":2}") << QStringList{"{\"a\":1}", "{\"b\":2}"} << 0;
        QTest::newRow("brackets in strings") << QByteArray("{\"m\":\"} ] { [\",\"n\":\"x\"}")
                                             << QStringList{"{\"m\":\"} ] { [\",\"n\":\"x\"}"} << 0;
        QTest::newRow("escaped quote and backslash")
            << QByteArray("{\"m\":\"say \\\"}\\\" \\\\\"}{\"k\":\"\\\\\\\"\"}")
            << QStringList{"{\"m\":\"say \\\"}\\\" \\\\\"}", "{\"k\":\"\\\\\\\"\"}"} << 0;
        QTest::newRow("unicode kept as bytes")
            << QByteArray("{\"名\":\"→ µ\"}") << QStringList{"{\"名\":\"→ µ\"}"} << 0;
        QTest::newRow("junk between objects skipped")
            << QByteArray("W1202 warning\n{\"a\":1}\nxx{\"b\":2}") << QStringList{"{\"a\":1}", "{\"b\":2}"}
            << 14; // "W1202" + "warning" + "xx"
        QTest::newRow("partial object held back")
            << QByteArray("{\"a\":1}{\"b\":") << QStringList{"{\"a\":1}"} << 0;
        QTest::newRow("empty") << QByteArray() << QStringList{} << 0;
    }

    void frames() {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, objects);
        QFETCH(int, skipped);
        for (int chunk : {1, 2, 3, 7, int(std::max<qsizetype>(1, input.size()))}) {
            JsonObjectStream s;
            QCOMPARE(split(input, chunk, s), objects);
            QCOMPARE(int(s.skippedBytes()), skipped);
        }
    }

    // An object past the size limit is dropped, its end still found: the next object comes out whole.
    void overlongObjectDropped() {
        JsonObjectStream s;
        s.feed("{\"big\":\"");
        const std::string filler(1 << 20, 'x');
        for (std::size_t n = 0; n <= JsonObjectStream::kMaxObjectBytes; n += filler.size()) {
            s.feed(filler);
            QVERIFY(!s.next());
        }
        s.feed("\"}\n{\"ok\":true}");
        QCOMPARE(QString::fromStdString(s.next().value_or("none")), "{\"ok\":true}");
        QVERIFY(!s.next());
        QCOMPARE(int(s.droppedObjects()), 1);
    }
};

QTEST_GUILESS_MAIN(TestJsonObjectStream)
#include "tst_jsonobjectstream.moc"
