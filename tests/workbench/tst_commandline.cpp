// cnp-workbench's command line: WORKSPACE, --page, --step-diff, --screenshot, --size, and readable errors.
#include "WorkbenchCommandLine.h"

#include <QtTest>

using namespace cnp::wb;

class TestCommandLine : public QObject {
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void stepDiffValue();
    void tabValue();
    void version();
};

void TestCommandLine::parse_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("workspace");
    QTest::addColumn<QString>("page"); // "" = none
    QTest::addColumn<QString>("screenshot");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("errorPart"); // "" = no error
    QTest::newRow("nothing") << QStringList{} << ""
                             << ""
                             << "" << QSize(1280, 800) << "";
    QTest::newRow("workspace") << QStringList{"w.cnpdb"} << "w.cnpdb"
                               << ""
                               << "" << QSize(1280, 800) << "";
    QTest::newRow("page") << QStringList{"w.cnpdb", "--page", "kernels"} << "w.cnpdb"
                          << "kernels"
                          << "" << QSize(1280, 800) << "";
    QTest::newRow("page case") << QStringList{"--page", "Timeline"} << ""
                               << "timeline"
                               << "" << QSize(1280, 800) << "";
    QTest::newRow("screenshot") << QStringList{"w.cnpdb", "--page", "run",      "--screenshot",
                                               "a.png",   "--size", "1920x1080"}
                                << "w.cnpdb"
                                << "run"
                                << "a.png" << QSize(1920, 1080) << "";
    QTest::newRow("run") << QStringList{"w.cnpdb", "--run", "ckpt", "--page", "insights"} << "w.cnpdb"
                         << "insights"
                         << "" << QSize(1280, 800) << "";
    QTest::newRow("plan opens the plans page") << QStringList{"w.cnpdb", "--plan", "p.yaml"} << "w.cnpdb"
                                               << "plans"
                                               << "" << QSize(1280, 800) << "";
    QTest::newRow("plan with --page plans") << QStringList{"--page", "plans", "--plan", "p.yaml"} << ""
                                            << "plans"
                                            << "" << QSize(1280, 800) << "";
    QTest::newRow("plan with another page")
        << QStringList{"--plan", "p.yaml", "--page", "kernels"} << ""
        << ""
        << "" << QSize(1280, 800) << "--plan opens the plans page, not 'kernels'";
    QTest::newRow("step diff opens compare") << QStringList{"w.cnpdb", "--step-diff", "2"} << "w.cnpdb"
                                             << "compare"
                                             << "" << QSize(1280, 800) << "";
    QTest::newRow("step diff median") << QStringList{"--page", "compare", "--step-diff", "median"} << ""
                                      << "compare"
                                      << "" << QSize(1280, 800) << "";
    QTest::newRow("step diff with another page")
        << QStringList{"--step-diff", "1", "--page", "kernels"} << ""
        << ""
        << "" << QSize(1280, 800) << "--step-diff opens the compare page, not 'kernels'";
    QTest::newRow("bad step diff") << QStringList{"--step-diff", "two"} << ""
                                   << ""
                                   << "" << QSize(1280, 800) << "--step-diff wants a step number or 'median'";
    QTest::newRow("bad page") << QStringList{"--page", "nope"} << ""
                              << ""
                              << "" << QSize(1280, 800) << "unknown page 'nope'";
    QTest::newRow("bad size") << QStringList{"--screenshot", "a.png", "--size", "big"} << ""
                              << ""
                              << "a.png" << QSize(1280, 800) << "--size wants WxH";
    QTest::newRow("size alone") << QStringList{"--size", "800x600"} << ""
                                << ""
                                << "" << QSize(800, 600) << "only meaningful with --screenshot";
    QTest::newRow("missing value") << QStringList{"--page"} << ""
                                   << ""
                                   << "" << QSize(1280, 800) << "--page needs a value";
    QTest::newRow("two workspaces") << QStringList{"a.cnpdb", "b.cnpdb"} << "a.cnpdb"
                                    << ""
                                    << "" << QSize(1280, 800) << "more than one workspace";
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << ""
                                    << ""
                                    << "" << QSize(1280, 800) << "unknown option";
}

void TestCommandLine::stepDiffValue() {
    QCOMPARE(WorkbenchCommandLine::parse({"cnp-workbench", "--step-diff", "3"}).stepDiff,
             std::optional<int>(3));
    QCOMPARE(WorkbenchCommandLine::parse({"cnp-workbench", "--step-diff", "median"}).stepDiff,
             std::optional<int>(-1));
    QVERIFY(!WorkbenchCommandLine::parse({"cnp-workbench"}).stepDiff);
}

// --tab NAME: the page's tab to open (a screenshot of the Ranks page's Collectives tab).
void TestCommandLine::tabValue() {
    const auto cl =
        WorkbenchCommandLine::parse({"cnp-workbench", "w.cnpdb", "--page", "ranks", "--tab", "collectives"});
    QVERIFY2(cl.error.isEmpty(), qPrintable(cl.error));
    QCOMPARE(cl.tab, QStringLiteral("collectives"));
    QCOMPARE(cl.page, std::optional<PageId>(PageId::Ranks));
    QVERIFY(WorkbenchCommandLine::parse({"cnp-workbench"}).tab.isEmpty());
    QCOMPARE(WorkbenchCommandLine::parse({"cnp-workbench", "--tab"}).error,
             QStringLiteral("--tab needs a value"));
}

void TestCommandLine::parse() {
    QFETCH(QStringList, args);
    QFETCH(QString, workspace);
    QFETCH(QString, page);
    QFETCH(QString, screenshot);
    QFETCH(QSize, size);
    QFETCH(QString, errorPart);
    args.prepend(QStringLiteral("cnp-workbench"));
    const WorkbenchCommandLine cl = WorkbenchCommandLine::parse(args);
    if (!errorPart.isEmpty()) {
        QVERIFY2(cl.error.contains(errorPart), qPrintable(cl.error));
        return;
    }
    QCOMPARE(cl.error, QString());
    QCOMPARE(cl.workspace, workspace);
    QCOMPARE(cl.page ? pageKey(*cl.page) : QString(), page);
    QCOMPARE(cl.screenshotFile, screenshot);
    QCOMPARE(cl.size, size);
}

QTEST_MAIN(TestCommandLine)
// --version wins over everything after it (as --help does) and is off by default.
void TestCommandLine::version() {
    QVERIFY(WorkbenchCommandLine::parse({"cnp-workbench", "--version"}).versionRequested);
    const auto late = WorkbenchCommandLine::parse({"cnp-workbench", "w.cnpdb", "--version", "--bogus"});
    QVERIFY(late.versionRequested);
    QVERIFY(late.error.isEmpty());
    QVERIFY(!WorkbenchCommandLine::parse({"cnp-workbench", "w.cnpdb"}).versionRequested);
    QVERIFY(!WorkbenchCommandLine::parse({"cnp-workbench", "--help"}).versionRequested);
}

#include "tst_commandline.moc"
