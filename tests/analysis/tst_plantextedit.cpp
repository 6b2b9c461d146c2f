// PlanTextEdit: a form edit rewrites exactly one value of the YAML text, keeping comments and layout;
// the edited text parses back to the new value.
#include "plan/PlanParser.h"
#include "plan/PlanTextEdit.h"

#include <QtTest>

using namespace cnp::plan;

namespace {
const std::string kPlan = "# study\n"
                          "workload: {command: [run]}\n"
                          "configurations:\n"
                          "  - name: Base # the baseline\n"
                          "    image: \"img:1\"   # quoted\n"
                          "  - name: Next\n"
                          "    extends: Base\n"
                          "    nodePool: p1\n"
                          "  - {name: Flow, extends: Next}\n"
                          "kubernetes: {namespace: perf}\n";
}

class TestPlanTextEdit : public QObject {
    Q_OBJECT
private slots:
    void scalar_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("yaml");
        QTest::newRow("plain") << "nvcr.io/nvidia/pytorch:25.01-py3"
                               << "\"nvcr.io/nvidia/pytorch:25.01-py3\"";
        QTest::newRow("simple word") << "Base+ACCL"
                                     << "Base+ACCL";
        QTest::newRow("bool-like") << "true"
                                   << "\"true\"";
        QTest::newRow("number-like") << "13.0.2"
                                     << "\"13.0.2\"";
        QTest::newRow("quotes") << "a \"b\""
                                << "\"a \\\"b\\\"\"";
        QTest::newRow("empty") << ""
                               << "\"\"";
        QTest::newRow("shell") << "$(rm -rf ~)"
                               << "\"$(rm -rf ~)\"";
    }
    void scalar() {
        QFETCH(QString, value);
        QFETCH(QString, yaml);
        QCOMPARE(QString::fromStdString(yamlScalar(value.toStdString())), yaml);
    }

    void edits_data() {
        QTest::addColumn<int>("config");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("changedLine"); // the line as it must read afterwards
        QTest::newRow("replace quoted") << 0 << "image"
                                        << "img:2"
                                        << "    image: \"img:2\"   # quoted";
        QTest::newRow("replace in block") << 1 << "nodePool"
                                          << "p two"
                                          << "    nodePool: \"p two\"";
        QTest::newRow("insert after name") << 1 << "image"
                                           << "img:3"
                                           << "    image: \"img:3\"";
    }
    void edits() {
        QFETCH(int, config);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, changedLine);
        const ParseResult before = parsePlanText(kPlan, "p.yaml");
        QVERIFY(before.ok());
        const auto text = setConfigurationKey(kPlan, before.plan.configurations[size_t(config)],
                                              key.toStdString(), value.toStdString());
        QVERIFY(text);
        QVERIFY2(QString::fromStdString(*text).split('\n').contains(changedLine), text->c_str());
        QCOMPARE(QString::fromStdString(*text).count('\n'),
                 QString::fromStdString(kPlan).count('\n') + (key == "image" && config == 1 ? 1 : 0));
        QVERIFY(text->find("# study\n") == 0);
        const ParseResult after = parsePlanText(*text, "p.yaml");
        QVERIFY(after.ok());
        const Configuration& c = after.plan.configurations[size_t(config)];
        const std::string got = key == "image" ? c.own.image.value_or("") : c.own.nodePool.value_or("");
        QCOMPARE(got, value.toStdString());
    }

    // The name and every `extends:` naming it change together; the comment after the name stays.
    void rename() {
        const ParseResult p = parsePlanText(kPlan, "p.yaml");
        const auto text = renameConfiguration(kPlan, p.plan, 0, "Stock");
        QVERIFY(text);
        const QStringList lines = QString::fromStdString(*text).split('\n');
        QCOMPARE(lines[3], QStringLiteral("  - name: Stock # the baseline"));
        QCOMPARE(lines[6], QStringLiteral("    extends: Stock"));
        const ParseResult after = parsePlanText(*text, "p.yaml");
        QVERIFY(after.ok());
        QCOMPARE(after.plan.configurations[2].resolved.image, std::optional<std::string>("img:1"));
        const auto flow = renameConfiguration(kPlan, p.plan, 1, "Middle");
        QVERIFY(flow && flow->find("  - {name: Flow, extends: Middle}\n") != std::string::npos);
    }

    void flowStyleIsRefused() {
        const ParseResult p = parsePlanText(kPlan, "p.yaml");
        QVERIFY(!setConfigurationKey(kPlan, p.plan.configurations[2], "image", "x")); // no key: would insert
        const auto renamed = setConfigurationKey(kPlan, p.plan.configurations[2], "name", "Flow2");
        QVERIFY(renamed); // an existing flow value is replaced in place
        QVERIFY(renamed->find("  - {name: Flow2, extends: Next}\n") != std::string::npos);
    }

    void append() {
        const auto text = appendConfiguration(kPlan, "New", "Flow");
        QVERIFY(text);
        QVERIFY2(
            text->find("  - {name: Flow, extends: Next}\n  - name: New\n    extends: Flow\nkubernetes:") !=
                std::string::npos,
            text->c_str());
        const ParseResult after = parsePlanText(*text, "p.yaml");
        QVERIFY(after.ok());
        QCOMPARE(after.plan.configurations.size(), std::size_t(4));
        QCOMPARE(after.plan.configurations[3].resolved.image, std::optional<std::string>("img:1"));
        QVERIFY(!appendConfiguration("configurations: [{name: A}]\n", "B", ""));
    }
};

QTEST_APPLESS_MAIN(TestPlanTextEdit)
#include "tst_plantextedit.moc"
