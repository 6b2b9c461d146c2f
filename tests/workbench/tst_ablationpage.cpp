// The Ablation page on the real H200 demo workspace: what its charts draw equals computeAblation() and
// `cnp ablation --json` for the same workspace. (The time to the first chart: bench/gui_responsiveness.cpp.)
#include "AblationPage.h"
#include "AblationTableModel.h"
#include "ChartView.h"
#include "DemoWorkspace.h"
#include "MainWindow.h"
#include "MfuInputsBar.h"
#include "ReportFixture.h"
#include "TestPaths.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"
#include "requests/AblationRequest.h"
#include "requests/MfuRequest.h"

#include "ingest/IngestPipeline.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

class TestAblationPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void firstChartHoldsTheComputedBars();
    void chartsEqualAnalysis();
    void chartsEqualCliJson();
    void commandLineOrderIsNotStored();
    void baselineAndOrder();
    void mfuInputsEditable();
    void ratioWithoutCiMarkedTooFewSteps();
    void studiesKeptApart();
    void stepLabelsNeverRepeat_data();
    void stepLabelsNeverRepeat();
    void tableShowsWholeRows_data();
    void tableShowsWholeRows();

private:
    // Opens the demo workspace in `w` and waits for the Ablation page's first result; nullptr on failure.
    AblationPage* openDemo(MainWindow& w);
    QTemporaryDir dir_;
    QString demo_;
};

static QVector<double> barValues(QCPBars* b) {
    QVector<double> v;
    for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
        v << it->value;
    return v;
}

void TestAblationPage::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(dir_.isValid());
    demo_ = wbtest::buildDemoWorkspace(dir_, 4);
}

// Opening a workspace on the Ablation page draws the chart from the computed result. (How long it takes is
// measured by bench/gui_responsiveness.cpp, not asserted here: wall time depends on the machine.)
void TestAblationPage::firstChartHoldsTheComputedBars() {
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(1280, 800);
    w.showPage(PageId::Ablation);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    QVERIFY(page);
    QTRY_VERIFY(page->isContentReady()); // the "no workspace" message
    QSignalSpy ready(page, &WorkbenchPage::contentReady);
    QVERIFY(w.openWorkspace(demo_));
    QVERIFY(ready.wait(60000)); // a hang guard only (about 0.3 s here, 1-2 s under the sanitizers)
    QCOMPARE(page->result().configs.size(), size_t(4));
    QVERIFY(page->valueBars());
    QCOMPARE(page->valueBars()->data()->size(), 4);
}

// Issue 32, "studies kept apart": a workspace holding two studies, the real H200 runs base and compile
// (study "h200") and two runs of another study ingested last ("other": Base, Base+ACCL, the demo's ckpt
// and compile_ckpt traces). The page opens on the newest study, offers both in its Study box, and never
// charts a configuration of one study beside the other's (before, all four were charted together).
void TestAblationPage::studiesKeptApart() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.cnpdb"));
    {
        Workspace ws(path.toStdString(), Workspace::Mode::CreateIfMissing);
        const std::pair<const char*, const char*> runs[] = {
            {"base", "h200"}, {"compile", "h200"}, {"ckpt", "other"}, {"compile_ckpt", "other"}};
        const char* configs[] = {"base", "compile", "Base", "Base+ACCL"};
        for (int i = 0; i < 4; ++i) {
            IngestRequest r;
            r.inputs = {wbtest::demoTracePath(QString::fromLatin1(runs[i].first)).toStdString()};
            r.runName = runs[i].first;
            r.config = configs[i];
            r.study = runs[i].second;
            r.tokensPerStep = 8192;
            ingest(ws, r);
        }
    }
    QSettings().clear();
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(1280, 800);
    w.showPage(PageId::Ablation);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    QAbstractItemModelTester tester(page->tableModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(w.openWorkspace(path));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && !page->result().configs.empty(), 60000);
    auto configsShown = [&]() {
        QStringList c;
        for (int r = 0; r < page->tableModel()->rowCount(); ++r)
            c << page->tableModel()->index(r, 0).data(Qt::UserRole).toString(); // the name, unmarked
        return c;
    };
    QCOMPARE(QString::fromStdString(page->result().study), QStringLiteral("other"));
    QCOMPARE(configsShown(), (QStringList{"Base", "Base+ACCL"}));
    QCOMPARE(page->valueBars()->data()->size(), 2);
    QComboBox* box = page->studyBox();
    QVERIFY(box->isVisible());
    QCOMPARE(box->count(), 2);
    QCOMPARE(box->itemText(0), QStringLiteral("other"));
    QCOMPARE(box->currentText(), QStringLiteral("other"));
    // The other study, through the box: its own two configurations, its own baseline.
    QSignalSpy ready(page, &WorkbenchPage::contentReady);
    box->setCurrentIndex(1);
    emit box->activated(1);
    QTRY_VERIFY_WITH_TIMEOUT(page->result().study == "h200" && page->isContentReady(), 60000);
    QCOMPARE(configsShown(), (QStringList{"base", "compile"}));
    QCOMPARE(QString::fromStdString(page->result().baseline), QStringLiteral("base"));
    QCOMPARE(page->valueBars()->data()->size(), 2);
    // What the page draws is the request's figure for that study (computed here on its own).
    AblationOptions o;
    o.study = "h200";
    const auto expected = computeAblation(Workspace(path.toStdString(), Workspace::Mode::ReadOnly), o);
    QCOMPARE(page->result().configs[1].medianStepNs, expected.configs[1].medianStepNs);
}

// Issue 32.10: "configuration names appear twice in the waterfall and attribution charts". A step shows
// what it adds ("+CompilerOpt") unless another step shows the same, or a configuration has that name; then
// its configuration's whole name.
void TestAblationPage::stepLabelsNeverRepeat_data() {
    QTest::addColumn<QStringList>("configs");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("the synthetic chain")
        << wbtest::kStudyConfigs << QStringList{"+ACCL", "AC2+ACCL", "+CompilerOpt", "+CkptOpt"};
    QTest::newRow("two steps add +CkptOpt")
        << QStringList{"Base (eager)", "+CompilerOpt", "+CompilerOpt+CkptOpt", "AC2+ACCL+CompilerOpt",
                       "AC2+ACCL+CompilerOpt+CkptOpt"}
        << QStringList{"+CompilerOpt", "+CompilerOpt+CkptOpt", "AC2+ACCL+CompilerOpt",
                       "AC2+ACCL+CompilerOpt+CkptOpt"};
    QTest::newRow("a step named like a configuration")
        << QStringList{"+X", "A", "A+X"} << QStringList{"A", "A+X"};
    QTest::newRow("one configuration") << QStringList{"A"} << QStringList{};
}
void TestAblationPage::stepLabelsNeverRepeat() {
    QFETCH(QStringList, configs);
    QFETCH(QStringList, labels);
    const QStringList got = AblationPage::stepLabels(configs);
    QCOMPARE(got, labels);
    QCOMPARE(QSet<QString>(got.begin(), got.end()).size(), got.size());
}

// Issue 32.10: the table showed 3.5 rows at 1280x800 (its horizontal scroll bar hid half of the fourth).
// Every configuration of the demo's 4-configuration study is a whole row in view, at both sizes.
void TestAblationPage::tableShowsWholeRows_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x800") << QSize(1280, 800);
    QTest::newRow("1024x640") << QSize(1024, 640);
}
void TestAblationPage::tableShowsWholeRows() {
    QFETCH(QSize, size);
    QSettings().clear(); // no configuration order or metric remembered from the tests before
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(size);
    w.showPage(PageId::Ablation);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    QTemporaryDir dir; // a study of its own: the tests before change the shared demo's plan order
    QVERIFY(w.openWorkspace(wbtest::buildDemoWorkspace(dir, 4)));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->result().configs.size() == 4, 60000);
    QTableView* table = nullptr;
    for (QTableView* t : page->findChildren<QTableView*>())
        if (t->model() && t->model()->rowCount() == 4)
            table = t;
    QVERIFY(table);
    QTest::qWait(50); // layouts settle
    const int last = table->model()->rowCount() - 1;
    const QRect row = table->visualRect(table->model()->index(last, 0));
    QVERIFY2(row.top() >= 0 && row.bottom() < table->viewport()->height(),
             qPrintable(QStringLiteral("row %1: %2..%3 of a %4 px viewport")
                            .arg(last)
                            .arg(row.top())
                            .arg(row.bottom())
                            .arg(table->viewport()->height())));
}

// The report fixture has 4 steps per configuration (< 5: no CI). The speedup label above the bar says
// so; "n.s." would claim a CI that includes 1.
void TestAblationPage::ratioWithoutCiMarkedTooFewSteps() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("few.cnpdb"));
    {
        Workspace ws(path.toStdString(), Workspace::Mode::CreateIfMissing);
        cnp::testing::buildReportFixture(ws);
    }
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(1280, 800);
    w.show();
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    page->setMetric(AblationPage::Metric::StepTime);
    QVERIFY(w.openWorkspace(path));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->result().configs.size() == 2, 20000);
    QVERIFY(!page->result().configs[1].speedupVsBaseline.hasCi);
    QStringList labels;
    QCustomPlot* plot = page->valueBars()->parentPlot();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
            labels << t->text();
    QVERIFY2(labels.contains(UnitFormat::ratio(1.25) + QStringLiteral(" (too few steps)")),
             qPrintable(labels.join(QStringLiteral(" | "))));
    for (const QString& l : labels)
        QVERIFY2(!l.contains(QStringLiteral("n.s.")), qPrintable(l));
    // Issue 32.10: a step whose gain is not significant (here: no CI) had no bar, only its grey label. Its
    // bar is in the grey "not significant" series: |10 ms - 8 ms| in the chart's unit (ms).
    QCustomPlot* wf = page->waterfallChart();
    QCPBars* flat = nullptr;
    QCPBars* faster = nullptr;
    for (int i = 0; i < wf->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(wf->plottable(i))) {
            if (b->name() == QStringLiteral("not significant"))
                flat = b;
            else if (b->name() == QStringLiteral("faster"))
                faster = b;
        }
    QVERIFY(flat && faster);
    QVERIFY(!page->result().configs[1].gainVsPrevious->significant);
    QCOMPARE(flat->data()->size(), 1);
    QCOMPARE(flat->data()->at(0)->key, 1.0);
    QCOMPARE(flat->data()->at(0)->value, 2.0); // 10 ms -> 8 ms, in ms
    QVERIFY(faster->data()->isEmpty());
}

void TestAblationPage::chartsEqualAnalysis() {
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(1280, 800);
    w.show();
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    page->setMetric(AblationPage::Metric::StepTime);
    QVERIFY(w.openWorkspace(demo_));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && !page->result().configs.empty(), 20000);
    Workspace ws(demo_.toStdString(), Workspace::Mode::ReadOnly);
    const AblationResult expected = computeAblation(ws);
    const AblationResult& got = page->result();
    QCOMPARE(got.configs.size(), expected.configs.size());
    QCOMPARE(got.baseline, expected.baseline);
    // Demo step times are tens of ms, so the value chart is in ms (1e6 ns per unit).
    const QVector<double> bars = barValues(page->valueBars());
    QCOMPARE(bars.size(), int(expected.configs.size()));
    for (size_t i = 0; i < expected.configs.size(); ++i) {
        const AblationConfig& e = expected.configs[i];
        QCOMPARE(got.configs[i].config, e.config);
        QCOMPARE(got.configs[i].medianStepNs, e.medianStepNs);
        QCOMPARE(bars[int(i)], double(e.medianStepNs) / 1e6);
        auto err = page->valueErrorBars()->data()->at(int(i));
        QVERIFY(qAbs(err.errorMinus - double(e.medianStepNs - e.ciLoNs) / 1e6) < 1e-9);
        QVERIFY(qAbs(err.errorPlus - double(e.ciHiNs - e.medianStepNs) / 1e6) < 1e-9);
        QCOMPARE(page->breakdownValues(QStringLiteral("compute"))[int(i)],
                 double(e.breakdownMeanNs.compute) / 1e6);
        QCOMPARE(page->breakdownValues(QStringLiteral("idle"))[int(i)], double(e.breakdownMeanNs.idle) / 1e6);
        QCOMPARE(page->breakdownValues(QStringLiteral("memory"))[int(i)],
                 double(e.breakdownMeanNs.memory) / 1e6);
        QCOMPARE(page->tableModel()
                     ->index(int(i), AblationTableModel::MedianColumn)
                     .data(Qt::UserRole)
                     .toLongLong(),
                 qint64(e.medianStepNs));
    }
    // The demo's known ranking (unprofiled medians, resources/demo/demo_summary.json): compile is the
    // fastest, ckpt the slowest: base 55.3, ckpt 71.9, compile 41.9, compile_ckpt 51.0 ms.
    QVERIFY(bars[2] < bars[3] && bars[3] < bars[0] && bars[0] < bars[1]);
    // Throughput view: 8192 tokens per step were recorded at ingest.
    page->setMetric(AblationPage::Metric::Throughput);
    const QVector<double> tput = barValues(page->valueBars());
    for (size_t i = 0; i < expected.configs.size(); ++i)
        QCOMPARE(tput[int(i)], expected.configs[i].throughput);
    QCOMPARE(QString::fromStdString(expected.configs[0].throughputUnit), QStringLiteral("tokens/s"));
    // Tooltips carry exact values.
    const QString tip = page->valueBars()->property("cnpTooltips").toStringList().value(0);
    QVERIFY2(tip.contains(QStringLiteral("%1 ns").arg(UnitFormat::integer(expected.configs[0].medianStepNs))),
             qPrintable(tip));
}

void TestAblationPage::chartsEqualCliJson() {
    QProcess cli;
    cli.start(testpaths::cliPath(), {QStringLiteral("ablation"), demo_, QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject json = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const QJsonArray configs = json.value(QStringLiteral("configs")).toArray();
    QCOMPARE(configs.size(), 4);

    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    page->setMetric(AblationPage::Metric::StepTime);
    QVERIFY(w.openWorkspace(demo_));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && !page->result().configs.empty(), 20000);
    const QVector<double> bars = barValues(page->valueBars());
    for (int i = 0; i < configs.size(); ++i) {
        const QJsonObject c = configs[i].toObject();
        const QJsonObject st = c.value(QStringLiteral("step_time_ns")).toObject();
        QCOMPARE(c.value(QStringLiteral("config")).toString(),
                 QString::fromStdString(page->result().configs[size_t(i)].config));
        QCOMPARE(bars[i], st.value(QStringLiteral("median")).toDouble() / 1e6);
        // 3 steps per configuration: no CI (ci95 null), so no error bar and a "too few steps" mark.
        QVERIFY(st.value(QStringLiteral("ci95")).isNull());
        auto err = page->valueErrorBars()->data()->at(i);
        QCOMPARE(err.errorMinus, 0.0);
        QCOMPARE(err.errorPlus, 0.0);
        QCOMPARE(page->tableModel()->index(i, AblationTableModel::CiColumn).data().toString(),
                 QStringLiteral("too few steps"));
        const QJsonObject b = c.value(QStringLiteral("breakdown_ns")).toObject();
        QCOMPARE(page->breakdownValues(QStringLiteral("compute"))[i],
                 b.value(QStringLiteral("compute")).toDouble() / 1e6);
        QCOMPARE(page->breakdownValues(QStringLiteral("communication"))[i],
                 b.value(QStringLiteral("communication")).toDouble() / 1e6);
        QCOMPARE(page->breakdownValues(QStringLiteral("overlap"))[i],
                 b.value(QStringLiteral("overlap")).toDouble() / 1e6);
    }
}

AblationPage* TestAblationPage::openDemo(MainWindow& w) {
    w.setPersistSettings(false);
    w.show();
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    if (!page || !w.openWorkspace(demo_))
        return nullptr;
    const bool ready =
        QTest::qWaitFor([&] { return page->isContentReady() && !page->result().configs.empty(); }, 20000);
    return ready ? page : nullptr;
}

// The command line's --configs (showOrder) compares those configurations in this window only: the
// workspace's plan order stays as it was (a screenshot of a shared workspace once rewrote it).
void TestAblationPage::commandLineOrderIsNotStored() {
    const std::vector<std::string> before =
        Workspace(demo_.toStdString(), Workspace::Mode::ReadOnly).planOrder();
    QVERIFY(before != std::vector<std::string>({"compile", "base"})); // else storing would go unseen
    MainWindow w;
    AblationPage* page = openDemo(w);
    QVERIFY(page);
    QSignalSpy ready(page, &WorkbenchPage::contentReady);
    page->showOrder({QStringLiteral("compile"), QStringLiteral("base")});
    QVERIFY(ready.wait(20000));
    QCOMPARE(page->result().configs.size(), size_t(2));
    QCOMPARE(page->result().configs[0].config, std::string("compile"));
    QCOMPARE(Workspace(demo_.toStdString(), Workspace::Mode::ReadOnly).planOrder(), before);
}

void TestAblationPage::baselineAndOrder() {
    MainWindow w;
    AblationPage* page = openDemo(w);
    QVERIFY(page);
    QSignalSpy ready(page, &WorkbenchPage::contentReady);
    page->setOrder({QStringLiteral("compile"), QStringLiteral("base")});
    QVERIFY(ready.wait(20000));
    QCOMPARE(page->result().configs.size(), size_t(2));
    QCOMPARE(page->result().configs[0].config, std::string("compile"));
    QCOMPARE(page->result().baseline, std::string("compile"));
    page->setBaseline(QStringLiteral("base"));
    QVERIFY(ready.wait(20000));
    QCOMPARE(page->result().baseline, std::string("base"));
    Workspace ws(demo_.toStdString(), Workspace::Mode::ReadOnly);
    AblationOptions o;
    o.order = {"compile", "base"};
    o.baseline = "base";
    const AblationResult e = computeAblation(ws, o);
    QCOMPARE(page->result().configs[0].speedupVsBaseline.value, e.configs[0].speedupVsBaseline.value);
    QCOMPARE(page->tableModel()->rowCount(), 2);
    // The chosen order is the workspace's plan order now; the others are shown as not in the plan.
    QCOMPARE(ws.planOrder().at(0), std::string("compile"));
    QCOMPARE(ws.planOrder().at(1), std::string("base"));
    QCOMPARE(ws.meta("plan_order").value_or(""), std::string("compile,base"));
    QVERIFY2(
        page->warningsText().contains(QStringLiteral("Not in the plan (not compared): ckpt, compile_ckpt")),
        qPrintable(page->warningsText()));
    QVERIFY(page->warningsText().contains(QStringLiteral("too few steps (3 &lt; 5)")));
}

// Issue 15.9: the MFU inputs are edited on the page, by keyboard and mouse: FLOPs per token typed, the
// H200 preset picked, Set clicked. They are stored in the workspace and the table's MFU is the analysis'
// figure for them; by hand: 1e9 FLOPs/token x 8192 tokens / median step / 989.4e12 FLOP/s (the H200
// datasheet's 1979 TFLOP/s with sparsity, halved). Invalid text is refused and stores nothing.
void TestAblationPage::mfuInputsEditable() {
    QTemporaryDir dir;
    const QString path = wbtest::buildDemoWorkspace(dir, 2);
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(1024, 640);
    w.showPage(PageId::Ablation);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    QVERIFY(w.openWorkspace(path));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && !page->result().configs.empty(), 20000);
    auto mfuCell = [&](int row) {
        return page->tableModel()->index(row, AblationTableModel::MfuColumn).data(Qt::UserRole);
    };
    QVERIFY(!mfuCell(0).isValid()); // no FLOPs known yet
    auto* flops = page->findChild<QLineEdit*>(QStringLiteral("mfuFlopsPerToken"));
    auto* peak = page->findChild<QLineEdit*>(QStringLiteral("mfuPeakFlops"));
    auto* gpu = page->findChild<QComboBox*>(QStringLiteral("mfuGpuBox"));
    auto* set = page->findChild<QPushButton*>(QStringLiteral("mfuApply"));
    QVERIFY(flops && peak && gpu && set);
    QVERIFY(flops->isVisible() && set->isVisible());
    QTest::keyClicks(flops, QStringLiteral("1e9"));
    gpu->setFocus();
    for (int i = 0; i < gpu->count() && !gpu->currentText().startsWith(QStringLiteral("NVIDIA H200 SXM"));
         ++i)
        QTest::keyClick(gpu, Qt::Key_Down);
    QCOMPARE(peak->text(), QStringLiteral("9.894e+14"));
    QSignalSpy ready(page, &WorkbenchPage::contentReady);
    QTest::mouseClick(set, Qt::LeftButton);
    QVERIFY(ready.wait(20000));
    {
        Workspace ws(path.toStdString(), Workspace::Mode::ReadOnly);
        const MfuInputs in = workspaceMfuInputs(ws);
        QCOMPARE(in.flopsPerToken, 1e9);
        QCOMPARE(in.peakFlops, 989.4e12);
    }
    for (int row = 0; row < 2; ++row) {
        const double stepSeconds = double(page->result().configs[size_t(row)].medianStepNs) / 1e9;
        const double expected = 1e9 * 8192 / stepSeconds / 989.4e12;
        QVERIFY(mfuCell(row).isValid());
        QVERIFY2(std::fabs(mfuCell(row).toDouble() - expected) < 1e-12 * expected,
                 qPrintable(QStringLiteral("%1 vs %2").arg(mfuCell(row).toDouble()).arg(expected)));
        QCOMPARE(page->tableModel()->index(row, AblationTableModel::MfuColumn).data().toString(),
                 UnitFormat::percent(expected));
    }
    QVERIFY2(page->mfuInputsBar()->basisText().contains(QStringLiteral("989.4 TFLOP/s (workspace)")),
             qPrintable(page->mfuInputsBar()->basisText()));
    // A bad value is refused where it was typed; the stored inputs stay.
    flops->selectAll();
    QTest::keyClicks(flops, QStringLiteral("lots"));
    QTest::keyClick(flops, Qt::Key_Return);
    QVERIFY(page->mfuInputsBar()->basisText().contains(QStringLiteral("FLOPs per token must be a number")));
    QCOMPARE(workspaceMfuInputs(*w.session()->workspace()).flopsPerToken, 1e9);
    // Cleared fields: the MFU is gone again (the demo's runs record no FLOPs).
    flops->clear();
    peak->clear();
    QTest::mouseClick(set, Qt::LeftButton);
    QVERIFY(ready.wait(20000));
    QVERIFY(!mfuCell(0).isValid());
    QVERIFY(page->mfuInputsBar()->basisText().contains(QStringLiteral("NVIDIA H200 SXM default")));
    // Another window on the same workspace shows what was stored.
    flops->setText(QStringLiteral("2.5e9"));
    QTest::mouseClick(set, Qt::LeftButton);
    QVERIFY(ready.wait(20000));
    MainWindow other;
    other.setPersistSettings(false);
    other.showPage(PageId::Ablation);
    other.show();
    QVERIFY(other.openWorkspace(path));
    auto* otherPage = qobject_cast<AblationPage*>(other.page(PageId::Ablation));
    QTRY_VERIFY_WITH_TIMEOUT(otherPage->isContentReady() && !otherPage->result().configs.empty(), 20000);
    QCOMPARE(otherPage->findChild<QLineEdit*>(QStringLiteral("mfuFlopsPerToken"))->text(),
             QStringLiteral("2.5e+09"));
}

QTEST_MAIN(TestAblationPage)
#include "tst_ablationpage.moc"
