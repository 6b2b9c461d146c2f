// The Ranks page on a small synthetic cluster run (2 nodes x 2 GPUs, cnp synth core): every heatmap cell
// equals the analysis' per-rank step figure (RunSummaryReader's step summaries), the straggler mark sits
// on the rank with the most compute, sorting the summary reorders the heatmap, and clicking a cell asks
// for the timeline at that rank's step window. Both models run under QAbstractItemModelTester. Clicking a
// rank in the summary shows its straggler evidence (computeStragglers' figures); the Collectives tab lists
// every call matched across ranks (2 layers: 2 + 2 all-gathers and 2 reduce-scatters per step) and a click
// asks for the timeline over the call.
#include "CollectiveCallModel.h"
#include "CollectiveEfficiencyModel.h"
#include "CollectivesPanel.h"
#include "MainWindow.h"
#include "RankHeatmapModel.h"
#include "RankSummaryModel.h"
#include "RanksPage.h"
#include "RunPage.h"
#include "SummaryBarDelegate.h"
#include "ThemeMode.h"
#include "TimelineHostPage.h"
#include "TimelinePage.h"
#include "TimelineView.h"
#include "UnitFormat.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "ingest/IngestPipeline.h"
#include "metrics/MultiRankSteps.h"
#include "metrics/StragglerEvidence.h"
#include "requests/CollectivesRequest.h"
#include "requests/WorkspaceCategories.h"
#include "synth/StudyGenerator.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace cnp;
using namespace cnp::wb;

class TestRanksPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cellsEqualStepSummaries_data();
    void cellsEqualStepSummaries();
    void sortingReordersHeatmap();
    void clickOpensTimeline();
    void syntheticBadgeShown();
    void legendStatesTheSpread();
    void rankClickShowsEvidence();
    void collectivesTabListsCalls();
    void efficiencyColumnsWholeAtTheSmallestSize();
    void runPageStatesTheClocks();
    void callJumpOpensItsRanksAtItsTime();
    void barFiguresReadableInEveryTheme_data();
    void barFiguresReadableInEveryTheme();

private:
    RanksPage* openPage(MainWindow& w);
    QTemporaryDir dir_;
    QString ws_;
    std::vector<StepSummary> steps_;
    StragglersResult stragglers_;
};

void TestRanksPage::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    const auto params = synth::SynthParams::fromFile(synth::SynthParams::studyPath("acs-llama3-8b"));
    synth::StudyOptions o;
    o.outDir = dir_.filePath("study").toStdString();
    o.nodes = 2;
    o.gpusPerNode = 2;
    o.steps = 4;
    o.layers = 2;
    o.configs = {"Base"};
    const auto runs = synth::generateStudy(params, synth::resolveOptions(params, o));
    ws_ = dir_.filePath("ranks.cnpdb");
    Workspace ws(ws_.toStdString(), Workspace::Mode::CreateIfMissing);
    IngestRequest req;
    req.inputs = {runs[0].folder};
    req.runName = "cluster";
    req.config = "Base";
    const auto res = ingest(ws, req);
    steps_ = summaryReaderOf(ws, res.runId).steps();
    stragglers_ = computeStragglers(ws, res.runId);
    QCOMPARE(steps_.size(), std::size_t(16)); // 4 ranks x 4 steps
}

RanksPage* TestRanksPage::openPage(MainWindow& w) {
    w.setPersistSettings(false);
    w.showPage(PageId::Ranks);
    w.show();
    auto* page = qobject_cast<RanksPage*>(w.page(PageId::Ranks));
    if (!w.openWorkspace(ws_))
        return nullptr;
    w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("cluster"))->id);
    return page;
}

void TestRanksPage::cellsEqualStepSummaries_data() {
    QTest::addColumn<int>("figure");
    QTest::newRow("step time") << int(RankStepFigure::StepTime);
    QTest::newRow("exposed communication") << int(RankStepFigure::ExposedCommunication);
    QTest::newRow("idle") << int(RankStepFigure::Idle);
}

void TestRanksPage::cellsEqualStepSummaries() {
    QFETCH(int, figure);
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QAbstractItemModelTester t1(page->heatmapModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(page->summaryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    page->figureBox()->setCurrentIndex(page->figureBox()->findData(figure));
    const auto* m = page->heatmapModel();
    QCOMPARE(m->columnCount(), 4);
    for (const StepSummary& s : steps_) {
        const Ns expected = figure == int(RankStepFigure::StepTime)               ? s.length()
                            : figure == int(RankStepFigure::ExposedCommunication) ? s.breakdown.communication
                                                                                  : s.breakdown.idle;
        QCOMPARE(m->index(s.rank, s.index).data(RankHeatmapModel::ValueRole).toLongLong(), expected);
        // The straggler: the rank with the most compute in this step, worked out from the summaries here.
        const StepSummary* most = &s;
        for (const StepSummary& o : steps_)
            if (o.index == s.index && o.breakdown.compute > most->breakdown.compute)
                most = &o;
        QCOMPARE(m->index(s.rank, s.index).data(RankHeatmapModel::StragglerRole).toBool(), most == &s);
        // Issue 32.10: the dot sat in black on the lightest cells of the idle and communication figures
        // (the straggler waits least) and read backwards. It is coloured by what it means, most compute:
        // the compute category's blue #1f77b4, on every figure.
        if (most == &s)
            QCOMPARE(m->index(s.rank, s.index).data(Qt::ForegroundRole).value<QColor>(),
                     QColor(0x1f, 0x77, 0xb4));
    }
}

void TestRanksPage::sortingReordersHeatmap() {
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    auto* summary = page->findChild<QTableView*>(QStringLiteral("rankSummary"));
    QVERIFY(summary);
    summary->sortByColumn(RankSummaryModel::IdleColumn, Qt::DescendingOrder);
    // The rank with the largest mean idle, from the step summaries.
    std::map<int, Ns> idle;
    for (const StepSummary& s : steps_)
        idle[s.rank] += s.breakdown.idle;
    const auto top =
        std::max_element(idle.begin(), idle.end(), [](auto& a, auto& b) { return a.second < b.second; });
    QCOMPARE(page->heatmapModel()->index(0, 0).data(RankHeatmapModel::RankRole).toInt(), top->first);
    QCOMPARE(page->heatmapModel()->headerData(0, Qt::Vertical).toString(), QString::number(top->first));
}

void TestRanksPage::clickOpensTimeline() {
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    QSignalSpy spy(page, &WorkbenchPage::timelineJumpRequested);
    QTableView* view = page->heatmapView();
    const QModelIndex cell = page->heatmapModel()->index(2, 1);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    QCOMPARE(spy.count(), 1);
    const StepSummary* s = nullptr;
    for (const auto& x : steps_)
        if (x.rank == 2 && x.index == 1)
            s = &x;
    QVERIFY(s);
    QCOMPARE(spy.at(0).at(0).value<RunId>(), w.session()->findRun(QStringLiteral("cluster"))->id);
    QCOMPARE(spy.at(0).at(1).value<RankId>(), RankId(2));
    QCOMPARE(spy.at(0).at(2).toLongLong(), s->gpuStart);
    QCOMPARE(spy.at(0).at(3).toLongLong(), s->gpuEnd);
}

// Issue 32.10: the scale spans the grid's own range (1.30-1.33 s), so a 2 % spread looked dramatic; the
// legend says the spread, (max - min) / min of the figure, computed here from the model's ends.
void TestRanksPage::legendStatesTheSpread() {
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    const double lo = double(page->heatmapModel()->minValue()), hi = double(page->heatmapModel()->maxValue());
    QVERIFY(lo > 0 && hi >= lo);
    const QString text = page->legendHighText();
    QVERIFY2(text.endsWith(QStringLiteral(" · spread ") + UnitFormat::percent((hi - lo) / lo)),
             qPrintable(text));
    QVERIFY(text.startsWith(UnitFormat::duration(hi)));
}

// The workspace holds only generated runs: the window's badge says so on every page.
void TestRanksPage::syntheticBadgeShown() {
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    auto* badge = w.findChild<QLabel*>(QStringLiteral("syntheticBadge"));
    QVERIFY(badge);
    QVERIFY(!badge->isVisible()); // no workspace: nothing synthetic in view
    QVERIFY(w.openWorkspace(ws_));
    w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("cluster"))->id);
    for (PageId id : allPages()) {
        w.showPage(id);
        QVERIFY(badge->isVisible());
    }
    QVERIFY2(badge->text().startsWith(QStringLiteral("SYNTHETIC run")), qPrintable(badge->text()));
    QVERIFY(badge->text().contains(QStringLiteral("1 of 1")));
}

void TestRanksPage::rankClickShowsEvidence() {
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    QTableView* view = page->summaryView();
    // The summary is sorted by rank: row 3 is rank 3.
    const QModelIndex cell = view->model()->index(3, 0);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    const RankStraggling* three = nullptr;
    for (const auto& s : stragglers_.report.ranks)
        if (s.rank == 3)
            three = &s;
    QVERIFY(three);
    QCOMPARE(three->calls, std::int64_t(24));
    const QString text = page->evidenceText();
    QVERIFY2(text.startsWith(QStringLiteral("rank 3: last at %1 of 24 calls").arg(three->lastCount)),
             qPrintable(text));
    QVERIFY(text.contains(QString::fromStdString(stragglerEvidenceLines(*three)[1])));
}

void TestRanksPage::collectivesTabListsCalls() {
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    CollectivesPanel* panel = page->collectivesPanel();
    QAbstractItemModelTester t(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(panel->model()->rowCount(), 4 * 6);
    // Efficiency per operation and size: the synthetic traces carry no NCCL arguments, so each operation's
    // calls are in its bucket of unknown size, and no peak is known.
    QAbstractItemModelTester te(panel->efficiencyModel(),
                                QAbstractItemModelTester::FailureReportingMode::QtTest);
    qlonglong calls = 0;
    for (int r = 0; r < panel->efficiencyModel()->rowCount(); ++r) {
        const auto& row = panel->efficiencyModel()->rows()[static_cast<std::size_t>(r)];
        QCOMPARE(row.bucketMinBytes, std::int64_t(-1));
        calls += row.calls;
        // Exposed + overlapped = the members' kernel time of the operation, summed from the match.
        Ns kernelNs = 0;
        for (const auto& c : stragglers_.match.calls)
            if (c.op == row.op)
                for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i)
                    kernelNs += stragglers_.match.members[i].departure - stragglers_.match.members[i].arrival;
        auto sortValue = [&](int column) {
            return panel->efficiencyModel()
                ->data(panel->efficiencyModel()->index(r, column), CollectiveEfficiencyModel::SortRole)
                .toLongLong();
        };
        QCOMPARE(sortValue(CollectiveEfficiencyModel::ExposedColumn) +
                     sortValue(CollectiveEfficiencyModel::OverlappedColumn),
                 qlonglong(kernelNs));
        QCOMPARE(sortValue(CollectiveEfficiencyModel::OverlappedColumn), qlonglong(row.overlappedNs));
    }
    QCOMPARE(calls, qlonglong(4 * 6));
    QVERIFY2(panel->efficiencyText().contains(QStringLiteral("peak is unknown")),
             qPrintable(panel->efficiencyText()));
    QVERIFY2(panel->statusText().startsWith(QStringLiteral("24 collective calls across 4 ranks")),
             qPrintable(panel->statusText()));
    // A call whose last rank is not claimed across hosts (a rank of the other host arrived within the
    // clocks' error) shows it as "N?"; the others as the number.
    QCOMPARE(stragglers_.lastRankUncertainByCall.size(), stragglers_.match.calls.size());
    for (int r = 0; r < panel->model()->rowCount(); ++r) {
        const bool uncertain = stragglers_.lastRankUncertainByCall[static_cast<std::size_t>(r)] != 0;
        const QString shown =
            panel->model()->index(r, CollectiveCallModel::LastRankColumn).data(Qt::DisplayRole).toString();
        QCOMPARE(shown, QString::number(stragglers_.match.calls[static_cast<std::size_t>(r)].lastRank) +
                            (uncertain ? QStringLiteral("?") : QString()));
    }
    QVERIFY2(panel->statusText().contains(QStringLiteral("fitted at ingest")),
             qPrintable(panel->statusText()));
    // 2 nodes: the clocks' agreement is stated.
    QCOMPARE(stragglers_.clocks.hosts.size(), std::size_t(2));
    QVERIFY2(panel->statusText().contains(
                 QStringLiteral("clocks aligned to ±%1 across 2 hosts")
                     .arg(UnitFormat::duration(double(stragglers_.clocks.storedErrorNs)))),
             qPrintable(panel->statusText()));
    page->tabs()->setCurrentWidget(panel);
    QSignalSpy spy(page, &WorkbenchPage::timelineCallJumpRequested);
    QTableView* view = panel->table();
    const QModelIndex first = view->model()->index(0, 0);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());
    QCOMPARE(spy.count(), 1);
    // Sorted by wait, longest first: the first row is the call with the longest wait.
    Ns longest = 0;
    const CollectiveCall* call = nullptr;
    for (const auto& c : stragglers_.match.calls)
        if (!call || c.waitNs > longest) {
            longest = c.waitNs;
            call = &c;
        }
    QCOMPARE(spy.at(0).at(1).value<RankId>(), RankId(call->lastRank));
    // Every member's lane is asked for, side by side.
    QList<qint32> members;
    for (std::size_t i = call->firstMember; i < call->firstMember + call->memberCount; ++i)
        members << stragglers_.match.members[i].rank;
    QCOMPARE(spy.at(0).at(2).value<QList<qint32>>(), members);
    QCOMPARE(spy.at(0).at(3).toLongLong(), call->firstArrival);
    QVERIFY(spy.at(0).at(4).toLongLong() > call->lastArrival);
}

// At the smallest window (1024x640) no efficiency column is cut: each is as wide as its contents, and what
// does not fit scrolls (the stretched last column had been squeezed: "Of peak" cut, no scroll bar).
void TestRanksPage::efficiencyColumnsWholeAtTheSmallestSize() {
    MainWindow w;
    w.resize(1024, 640);
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    CollectivesPanel* panel = page->collectivesPanel();
    page->tabs()->setCurrentWidget(panel);
    auto* table = panel->findChild<QTableView*>(QStringLiteral("collectivesEfficiencyTable"));
    QVERIFY(table);
    QTRY_VERIFY(table->isVisible() && table->model()->rowCount() > 0);
    QHeaderView* header = table->horizontalHeader();
    for (int c = 0; c < header->count(); ++c) {
        int need = header->sectionSizeHint(c); // the header's label
        for (int r = 0; r < table->model()->rowCount(); ++r)
            need = std::max(need, table->fontMetrics().horizontalAdvance(
                                      table->model()->index(r, c).data(Qt::DisplayRole).toString()));
        QVERIFY2(
            header->sectionSize(c) >= need,
            qPrintable(QStringLiteral("column %1: %2 px < %3").arg(c).arg(header->sectionSize(c)).arg(need)));
    }
    if (header->length() > table->viewport()->width())
        QTRY_VERIFY(table->horizontalScrollBar()->isVisible() && table->horizontalScrollBar()->maximum() > 0);
}

// Issue 30.3: the Run page states how well the two hosts' clocks agree, as the Collectives tab does.
void TestRanksPage::runPageStatesTheClocks() {
    MainWindow w;
    w.setPersistSettings(false);
    w.showPage(PageId::Run);
    w.show();
    QVERIFY(w.openWorkspace(ws_));
    w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("cluster"))->id);
    auto* page = qobject_cast<RunPage*>(w.page(PageId::Run));
    QVERIFY(page);
    const QString expected = QStringLiteral("Clocks aligned to ±%1</b> across 2 hosts")
                                 .arg(UnitFormat::duration(double(stragglers_.clocks.storedErrorNs)));
    QTRY_VERIFY_WITH_TIMEOUT(page->checksText().contains(expected), 20000);
    // Read from the fit stored at ingest, not matched again on opening.
    QVERIFY2(page->checksText().contains(QStringLiteral("fitted at ingest from the run's collectives")),
             qPrintable(page->checksText()));
}

namespace {
// WCAG 2 contrast ratio of two opaque colours (1 to 21).
double contrast(const QColor& a, const QColor& b) {
    auto lum = [](const QColor& c) {
        auto ch = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
    };
    const double x = lum(a), y = lum(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}
} // namespace

// Issue 32.9: in the dark theme the summary's figures (light text) sat on light-blue bars, unreadable.
// The text keeps WCAG AA contrast (4.5:1) on the bar in every theme.
// Issue 30.1: a Collectives row jumps to the timeline with all ranks' lanes of that call side by side —
// every member's rank group open, every other closed (all four ranks are members of every call of this
// study; tst_timelineview covers a call of some ranks), the window the call's span from its first arrival
// to its last departure, both computed here from the match, with a quarter of it as context each side
// and the view's 5 % margin.
void TestRanksPage::callJumpOpensItsRanksAtItsTime() {
    MainWindow w;
    RanksPage* page = openPage(w);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapModel()->rowCount() == 4, 20000);
    CollectivesPanel* panel = page->collectivesPanel();
    page->tabs()->setCurrentWidget(panel);
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->rowCount() == 24, 20000);
    QTableView* table = panel->table();
    // The table is sorted by wait, longest first: the first row is the call with the longest wait.
    const CollectiveCall* call = nullptr;
    for (const auto& c : stragglers_.match.calls)
        if (!call || c.waitNs > call->waitNs)
            call = &c;
    QVERIFY(call);
    QList<int> members;
    Ns lastDeparture = 0;
    for (std::size_t i = call->firstMember; i < call->firstMember + call->memberCount; ++i) {
        members << stragglers_.match.members[i].rank;
        lastDeparture = std::max(lastDeparture, stragglers_.match.members[i].departure);
    }
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(table->model()->index(0, 0)).center());
    auto* host = qobject_cast<TimelineHostPage*>(w.page(PageId::Timeline));
    QVERIFY(host);
    TimelineView* view = host->timeline()->view();
    const Ns span = lastDeparture - call->firstArrival, context = std::max<Ns>(span / 4, 1000);
    const Ns from = call->firstArrival - context, to = lastDeparture + context;
    QTRY_VERIFY_WITH_TIMEOUT(view->model() && view->axis().start() <= from && view->axis().end() >= to &&
                                 view->axis().end() - view->axis().start() <= (to - from) * 11 / 10 + 2,
                             20000);
    const auto& groups = view->model()->groups;
    int rankGroups = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].parent >= 0)
            continue;
        ++rankGroups;
        QVERIFY2(view->isCollapsed(int(g)) == !members.contains(groups[g].rank),
                 qPrintable(QString("rank %1").arg(groups[g].rank)));
    }
    QCOMPARE(rankGroups, 4);
}

void TestRanksPage::barFiguresReadableInEveryTheme_data() {
    QTest::addColumn<int>("theme");
    QTest::newRow("light") << int(ThemeMode::Light);
    QTest::newRow("dark") << int(ThemeMode::Dark);
}
void TestRanksPage::barFiguresReadableInEveryTheme() {
    QFETCH(int, theme);
    const QPalette p = themePalette(ThemeMode(theme));
    const QColor bar = SummaryBarDelegate::barColor(QColor(0x9e, 0xca, 0xe1), p);
    const double c = contrast(p.color(QPalette::Text), bar);
    QVERIFY2(c >= 4.5, qPrintable(QString::number(c)));
}

QTEST_MAIN(TestRanksPage)
#include "tst_rankspage.moc"
