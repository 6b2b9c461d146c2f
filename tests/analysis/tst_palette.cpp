// The product's one colour table (analysis/report/Palette): configuration colours are keyed by the
// configuration through the workspace's plan order (not by a row position), and the run A / run B pair
// of a comparison is distinct from every configuration and category colour.
#include "report/Palette.h"

#include <QtTest>

#include <set>
#include <string>
#include <vector>

using namespace cnp;

class TestPalette : public QObject {
    Q_OBJECT
private slots:
    void configurationByName_data();
    void configurationByName();
    void twelveDistinct();
    void runPairIsItsOwn();
};

void TestPalette::configurationByName_data() {
    QTest::addColumn<QString>("config");
    QTest::addColumn<QStringList>("plan");
    QTest::addColumn<int>("position"); // expected plan position whose colour it gets
    const QStringList plan{"base", "ckpt", "compile", "compile_ckpt"};
    QTest::newRow("first") << "base" << plan << 0;
    QTest::newRow("last") << "compile_ckpt" << plan << 3;
    QTest::newRow("plan reordered: follows the label") << "base" << QStringList{"ckpt", "base"} << 1;
    QTest::newRow("missing from the plan: after it") << "other" << plan << 4;
    QTest::newRow("nine: a colour of its own (the bundled demo)")
        << "i" << QStringList{"a", "b", "c", "d", "e", "f", "g", "h", "i"} << 8;
    QTest::newRow("cycles after twelve")
        << "m" << QStringList{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"} << 0;
}

void TestPalette::configurationByName() {
    QFETCH(QString, config);
    QFETCH(QStringList, plan);
    QFETCH(int, position);
    std::vector<std::string> p;
    for (const QString& c : plan)
        p.push_back(c.toStdString());
    QCOMPARE(palette::configurationColor(config.toStdString(), p), palette::configurationColor(position));
    QCOMPARE(palette::configurationColor(position % 12), palette::configurationColor(position));
}

// Twelve configurations, twelve colours, none of them a category's (a bar of configuration k never
// reads as "communication").
void TestPalette::twelveDistinct() {
    std::set<std::string> configs, categories;
    for (int i = 0; i < 12; ++i)
        configs.insert(palette::configurationColor(i));
    QCOMPARE(int(configs.size()), 12);
    QCOMPARE(palette::kConfigurationColors, 12);
    for (const char* c : {"gemm", "recompute", "attention", "triton-fused", "elementwise/reduction",
                          "optimizer", "other", "communication", "memory", "idle", "overlap"})
        QVERIFY2(!configs.count(palette::categoryColor(c)), c);
}

void TestPalette::runPairIsItsOwn() {
    std::set<std::string> used;
    for (int i = 0; i < palette::kConfigurationColors; ++i)
        used.insert(palette::configurationColor(i));
    for (const char* c : {"gemm", "attention", "triton-fused", "elementwise/reduction", "optimizer", "other",
                          "communication", "memory", "idle", "overlap"})
        used.insert(palette::categoryColor(c));
    QVERIFY(palette::runAColor() != palette::runBColor());
    QVERIFY(!used.count(palette::runAColor()));
    QVERIFY(!used.count(palette::runBColor()));
}

QTEST_APPLESS_MAIN(TestPalette)
#include "tst_palette.moc"
