// The Trend page on a small synthetic release history written here (9 releases x 2 configurations, every
// step time chosen so the medians, CIs, change point and gate ratio are known by hand): the table and the
// chart show exactly the stored figures, the E-divisive change point sits at the level shift with its
// shift, the latest release's `cnp check` verdict is a regression of Base by the known ratio, Enter on a
// row selects that release, --history opens the page, and an unreadable history is reported on the page.
#include "ElidedLabel.h"
#include "MainWindow.h"
#include "TrendChart.h"
#include "TrendPage.h"
#include "TrendTableModel.h"
#include "WorkbenchCommandLine.h"
#include "history/HistoryManifest.h"
#include "history/ReleaseSummaryJson.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

#include <cmath>

using namespace cnp;
using namespace cnp::wb;

namespace {

// Base's median step time per release (ms): a +10% level shift at release 4, a further +10% at release 8
// (the candidate). Opt is flat at 80 ms.
constexpr double kBaseMs[] = {100, 100, 100, 100, 110, 110, 110, 110, 121};
constexpr double kOptMs = 80;
constexpr int kReleases = 9;
constexpr int kSteps = 20;

// 20 steps at `levelMs` x (1 + 0.002 x {-2..2}), each offset 4 times: the median is exactly the level.
ConfigReleaseSummary configAt(const std::string& name, double levelMs) {
    ConfigReleaseSummary c;
    c.config = name;
    c.worldSize = 2;
    c.runs = {name + "-r0"};
    const Ns level = static_cast<Ns>(levelMs * 1e6);
    std::vector<Ns> steps;
    for (int i = 0; i < kSteps; ++i)
        steps.push_back(level + level / 500 * ((i * 7) % 5 - 2));
    c.stepTimesByRun = {steps};
    c.medianStepNs = level;
    c.hasCi = true;
    c.ciLoNs = level - level / 100; // 99% and 101% of the median
    c.ciHiNs = level + level / 100;
    c.throughput = 4096 * 1e9 / static_cast<double>(level);
    c.throughputCiLo = 4096 * 1e9 / static_cast<double>(c.ciHiNs);
    c.throughputCiHi = 4096 * 1e9 / static_cast<double>(c.ciLoNs);
    c.throughputUnit = "tokens/s";
    c.mfu = 0.4 * 100 / levelMs;
    return c;
}

QString releaseName(int i) {
    return QStringLiteral("26.%1").arg(i + 1, 2, 10, QLatin1Char('0'));
}

void writeHistory(const QString& folder) {
    HistoryManifest h = HistoryManifest::openOrCreate(folder.toStdString());
    for (int i = 0; i < kReleases; ++i) {
        ReleaseSummary s;
        s.configs = {configAt("Base", kBaseMs[i]), configAt("Opt", kOptMs)};
        HistoryEntry e;
        e.release = releaseName(i).toStdString();
        e.date = "2026-" + std::to_string(i + 1) + "-15";
        e.commit = "c" + std::to_string(i);
        e.study = "/studies/" + e.release + ".cnpdb";
        h.add(e);
        writeReleaseSummary(s, h.summaryPath(h.entries().back()).string());
    }
    h.save();
}

} // namespace

class TestTrendPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void tableAndChartShowTheStoredFigures();
    void changePointAtTheLevelShift();
    void latestReleaseVerdict();
    void otherMetricsAndConfigurations();
    void enterSelectsRelease();
    void commandLine();
    void unreadableHistory();

private:
    TrendPage* openPage(MainWindow& w, const QString& path);
    QTemporaryDir dir_;
    QString history_;
};

void TestTrendPage::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    history_ = dir_.filePath(QStringLiteral("history"));
    writeHistory(history_);
}

TrendPage* TestTrendPage::openPage(MainWindow& w, const QString& path) {
    w.setPersistSettings(false);
    w.resize(1280, 800);
    w.show();
    w.openHistory(path);
    auto* page = qobject_cast<TrendPage*>(w.page(PageId::Trend));
    if (page && !page->waitUntilReady(30000))
        return nullptr;
    return page;
}

void TestTrendPage::tableAndChartShowTheStoredFigures() {
    MainWindow w;
    auto* page = qobject_cast<TrendPage*>(w.page(PageId::Trend));
    QVERIFY(page);
    QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openPage(w, history_));
    QCOMPARE(w.currentPage(), PageId::Trend);
    QCOMPARE(page->configBox()->currentText(), QStringLiteral("Base"));
    QCOMPARE(page->metricBox()->currentData().toString(), QStringLiteral("step_time"));
    const TrendTableModel* m = page->model();
    QCOMPARE(m->rowCount(), kReleases);
    for (int i = 0; i < kReleases; ++i) {
        const double ns = kBaseMs[i] * 1e6;
        QCOMPARE(m->index(i, TrendTableModel::ReleaseColumn).data().toString(), releaseName(i));
        QCOMPARE(m->index(i, TrendTableModel::CommitColumn).data().toString(), QStringLiteral("c%1").arg(i));
        QCOMPARE(m->index(i, TrendTableModel::ValueColumn).data(Qt::UserRole).toDouble(), ns);
        QCOMPARE(m->index(i, TrendTableModel::CiLowColumn).data(Qt::UserRole).toDouble(), ns - ns / 100);
        QCOMPARE(m->index(i, TrendTableModel::CiHighColumn).data(Qt::UserRole).toDouble(), ns + ns / 100);
        QCOMPARE(m->index(i, TrendTableModel::ValueColumn).data().toString(),
                 TrendTableModel::valueText(QStringLiteral("step_time"), QStringLiteral("ns"), ns));
    }
    // Release 4 is 10% slower than release 3; release 8 10% slower than 7.
    QVERIFY(std::abs(m->index(4, TrendTableModel::ChangeColumn).data(Qt::UserRole).toDouble() - 0.10) < 1e-9);
    QVERIFY(std::abs(m->index(8, TrendTableModel::ChangeColumn).data(Qt::UserRole).toDouble() - 0.10) < 1e-9);
    // The chart: every release in ms (the scale for ~100 ms), the error bars at 99% and 101%.
    const TrendChart* c = page->chart();
    QCOMPARE(c->axisScale(), 1e-6);
    const auto values = c->plottedValues(), lows = c->plottedLows(), highs = c->plottedHighs();
    QCOMPARE(values.size(), kReleases);
    for (int i = 0; i < kReleases; ++i) {
        QVERIFY(std::abs(values[i] - kBaseMs[i]) < 1e-9);
        QVERIFY(std::abs(lows[i] - kBaseMs[i] * 0.99) < 1e-9);
        QVERIFY(std::abs(highs[i] - kBaseMs[i] * 1.01) < 1e-9);
    }
}

void TestTrendPage::changePointAtTheLevelShift() {
    MainWindow w;
    TrendPage* page = openPage(w, history_);
    QVERIFY(page);
    // E-divisive over 100 x4, 110 x4, 121: one split, before release 4, the segment means 100 and
    // (4 x 110 + 121) / 5 = 112.2 ms: a shift of +12.2%.
    const double shift = (4 * 110.0 + 121) / 5 / 100 - 1;
    int marked = 0;
    for (int i = 0; i < kReleases; ++i) {
        const QString text = page->model()->index(i, TrendTableModel::ChangePointColumn).data().toString();
        if (i == 4) {
            QVERIFY2(text.startsWith(QStringLiteral("shift ") + TrendTableModel::signedPercent(shift)),
                     qPrintable(text));
            ++marked;
        } else {
            QVERIFY2(text.isEmpty(), qPrintable(text));
        }
    }
    QCOMPARE(marked, 1);
    QCOMPARE(page->chart()->changeLabels(), QStringList{TrendTableModel::signedPercent(shift)});
    // Opt is flat: no change point.
    QVERIFY(page->showSeries(QStringLiteral("Opt"), QStringLiteral("step_time")));
    QVERIFY(page->chart()->changeLabels().isEmpty());
}

void TestTrendPage::latestReleaseVerdict() {
    MainWindow w;
    TrendPage* page = openPage(w, history_);
    QVERIFY(page);
    QCOMPARE(page->candidate(), kReleases - 1); // the latest is "new" by default
    QTRY_VERIFY_WITH_TIMEOUT(page->lastCheck().has_value(), 30000);
    const ReleaseCheck& check = *page->lastCheck();
    QCOMPARE(check.exitCode(), 1);
    QCOMPARE(check.checks.size(), std::size_t{2});
    // Base: the window is cut after the change point at release 4: releases 26.05 .. 26.08, pooled
    // median 110 ms; the candidate's 121 ms: ratio 1.1, a regression.
    const ConfigCheck& base = check.checks[0];
    QCOMPARE(base.config, std::string("Base"));
    QCOMPARE(QString::fromLatin1(toString(base.outcome.verdict)), QStringLiteral("regression"));
    QVERIFY(std::abs(base.outcome.ratio - 1.1) < 1e-9);
    QCOMPARE(base.baselineReleases, (std::vector<std::string>{"26.05", "26.06", "26.07", "26.08"}));
    // Opt: 80 ms on both sides over the last 5 releases: no change.
    const ConfigCheck& opt = check.checks[1];
    QCOMPARE(QString::fromLatin1(toString(opt.outcome.verdict)), QStringLiteral("no-change"));
    QVERIFY(std::abs(opt.outcome.ratio - 1.0) < 1e-9);
    QCOMPARE(opt.baselineReleases.size(), std::size_t{5});
    QVERIFY2(page->verdictText().contains(QStringLiteral("REGRESSION")), qPrintable(page->verdictText()));
    QVERIFY(page->verdictText().contains(TrendTableModel::signedPercent(0.1)));
    // Release 26.08 against those before it: the level of 26.05 .. 26.07 held, no regression.
    page->setCandidate(7);
    QTRY_VERIFY_WITH_TIMEOUT(page->lastCheck().has_value(), 30000);
    QCOMPARE(QString::fromLatin1(toString(page->lastCheck()->checks[0].outcome.verdict)),
             QStringLiteral("no-change"));
    QCOMPARE(page->lastCheck()->exitCode(), 0);
    // None: no check.
    page->setCandidate(-1);
    QVERIFY(!page->lastCheck());
}

void TestTrendPage::otherMetricsAndConfigurations() {
    MainWindow w;
    TrendPage* page = openPage(w, history_);
    QVERIFY(page);
    QVERIFY(page->showSeries(QStringLiteral("Base"), QStringLiteral("throughput")));
    QCOMPARE(page->chart()->axisScale(), 1.0);
    for (int i = 0; i < kReleases; ++i)
        QCOMPARE(page->model()->index(i, TrendTableModel::ValueColumn).data(Qt::UserRole).toDouble(),
                 4096 * 1e9 / (kBaseMs[i] * 1e6));
    QVERIFY(page->showSeries(QStringLiteral("Opt"), QStringLiteral("mfu")));
    QCOMPARE(page->chart()->axisScale(), 100.0);
    QVERIFY(std::abs(page->chart()->plottedValues().front() - 0.4 * 100 / kOptMs * 100) < 1e-9);
    QVERIFY(!page->showSeries(QStringLiteral("Nope"), QStringLiteral("mfu")));
}

void TestTrendPage::enterSelectsRelease() {
    MainWindow w;
    TrendPage* page = openPage(w, history_);
    QVERIFY(page);
    QCOMPARE(page->chart()->selectedRelease(), kReleases - 1); // the candidate, ringed at first
    QTableView* table = page->table();
    table->setFocus();
    table->setCurrentIndex(page->model()->index(2, 0));
    QTest::keyClick(table, Qt::Key_Return);
    QCOMPARE(page->chart()->selectedRelease(), 2);
    QCOMPARE(table->selectionModel()->selectedRows().value(0).row(), 2);
}

void TestTrendPage::commandLine() {
    const auto cl = WorkbenchCommandLine::parse({"cnp-workbench", "--history", history_});
    QVERIFY2(cl.error.isEmpty(), qPrintable(cl.error));
    QCOMPARE(cl.history, history_);
    QCOMPARE(cl.page, std::optional<PageId>(PageId::Trend));
    // A history folder as the positional argument.
    const auto positional = WorkbenchCommandLine::parse({"cnp-workbench", history_});
    QCOMPARE(positional.history, history_);
    QVERIFY(positional.workspace.isEmpty());
    const auto clash = WorkbenchCommandLine::parse({"cnp-workbench", "--history", history_, "--page", "run"});
    QVERIFY(clash.error.contains(QStringLiteral("trend")));
    QCOMPARE(pageFromKey(QStringLiteral("trend")), std::optional<PageId>(PageId::Trend));
}

void TestTrendPage::unreadableHistory() {
    const QString bad = dir_.filePath(QStringLiteral("bad"));
    QVERIFY(QDir().mkpath(bad));
    QFile f(bad + QStringLiteral("/cnp-history.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"cnp-history\", \"version\": 1, \"entries\": [{\"release\": \"../x\"}]}");
    f.close();
    MainWindow w;
    TrendPage* page = openPage(w, bad);
    QVERIFY(page);
    QCOMPARE(page->model()->rowCount(), 0);
    QVERIFY(!page->lastCheck());
    // The error names the manifest and the cause.
    const QString header = page->findChild<ElidedLabel*>(QStringLiteral("trendHeader"))->fullText();
    QVERIFY2(header.startsWith(QStringLiteral("Cannot read the history")), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("cnp-history.json")), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("release")), qPrintable(header));
}

QTEST_MAIN(TestTrendPage)
#include "tst_trendpage.moc"
