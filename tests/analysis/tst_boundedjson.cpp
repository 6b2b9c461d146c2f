// parseBoundedJson: JSON from untrusted storage parses without recursion and with bounded nesting.
#include "core/BoundedJson.h"

#include <QtTest>

using namespace cnp;

namespace {
std::string nestedArrays(int depth) {
    return std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']');
}
} // namespace

class TestBoundedJson : public QObject {
    Q_OBJECT

private slots:
    void parses_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("offset");
        QTest::newRow("flat array") << "[\"a\", \"b\"]" << true << "" << 0;
        QTest::newRow("nested object") << "{\"zero\": {\"bucket\": 5e8}}" << true << "" << 0;
        QTest::newRow("depth 64 (the limit)") << QString::fromStdString(nestedArrays(64)) << true << "" << 0;
        // The 65th "[" is byte 64.
        QTest::newRow("depth 65") << QString::fromStdString(nestedArrays(65)) << false
                                  << "nested deeper than 64 levels" << 64;
        QTest::newRow("a million levels")
            << QString::fromStdString(nestedArrays(1000000)) << false << "nested deeper than 64 levels" << 64;
        QTest::newRow("malformed") << "[1,]" << false << "Invalid value." << 3;
        QTest::newRow("trailing garbage")
            << "{} x" << false << "The document root must not be followed by other values." << 3;
    }
    void parses() {
        QFETCH(QString, json);
        QFETCH(bool, ok);
        QFETCH(QString, error);
        QFETCH(int, offset);
        const std::string text = json.toStdString();
        rapidjson::Document doc;
        const JsonParseOutcome r = parseBoundedJson(text, doc);
        QCOMPARE(r.ok, ok);
        QCOMPARE(QString::fromStdString(r.error), error);
        QCOMPARE(static_cast<int>(r.offset), offset);
        QCOMPARE(doc.IsNull(), !ok);
    }

    void valuesArrive() {
        rapidjson::Document doc;
        QVERIFY(parseBoundedJson("{\"zero\": {\"bucket\": 5e8, \"name\": \"x\"}}", doc).ok);
        QCOMPARE(doc["zero"]["bucket"].GetDouble(), 5e8);
        QCOMPARE(QString(doc["zero"]["name"].GetString()), QStringLiteral("x"));
    }
};

QTEST_GUILESS_MAIN(TestBoundedJson)
#include "tst_boundedjson.moc"
