// Issue 15.9, drilling through the pages: a click on an ablation bar opens Compare for that
// configuration against the previous one; Compare's diff rows carry mean per call and the B/A ratio;
// the Kernels page counts "n of N kernels shown" as filters change and clears them for another run;
// occurrence starts count from the run start (the timeline's origin); double-clicking a diff row opens
// the timeline with A above B, both searched for the kernel; double-clicking an insight's evidence
// opens the timeline on it.
#include "AblationPage.h"
#include "ChartView.h"
#include "ComparePage.h"
#include "DemoWorkspace.h"
#include "InsightsModel.h"
#include "InsightsPage.h"
#include "KernelDiffModel.h"
#include "KernelFilterProxy.h"
#include "KernelOccurrencesModel.h"
#include "KernelStatsModel.h"
#include "KernelsPage.h"
#include "MainWindow.h"
#include "TimelineHostPage.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "store/RunTimeOrigin.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineSearch.h"
#include "timeline/TimelineView.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

namespace {
// The name of the event `ref` of `v`'s model.
QString eventName(const TimelineView* v, const timeline::EventRef& ref) {
    const timeline::EventTrack& lane = v->model()->rows[ref.row].lanes[ref.lane];
    return QString::fromStdString(v->model()->names[lane.name(ref.index)]);
}
// How many of the search matches shown in `v` are GPU kernels.
qint64 kernelMatches(const TimelineView* v) {
    qint64 n = 0;
    for (std::size_t i = 0; i < v->search()->count(); ++i) {
        const timeline::SearchHit& h = v->search()->hit(i);
        n += v->model()->rows[h.row].lanes[h.lane].kind(h.index) == timeline::EventKind::Kernel;
    }
    return n;
}

// A click in the middle of configuration `config`'s bar of `page`'s value chart.
void clickValueBar(AblationPage* page, int config) {
    ChartView* c = page->valueChart();
    c->replot(QCustomPlot::rpImmediateRefresh);
    const QPoint at(int(c->xAxis->coordToPixel(config)),
                    int(c->yAxis->coordToPixel(page->valueBars()->data()->at(config)->value / 2)));
    QTest::mouseClick(c, Qt::LeftButton, {}, at);
}

// A double click on `index` of `view`, as a user's: QTest's mouseDClick alone sends no press before the
// double-click event, and an item view only emits doubleClicked() for the index pressed first.
void doubleClick(QAbstractItemView* view, const QModelIndex& index) {
    view->scrollTo(index);
    const QPoint at = view->visualRect(index).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
}
} // namespace

class TestDrillThrough : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        demo_ = wbtest::buildDemoWorkspace(dir_, 3);
    }

    void ablationBarOpensCompare() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Ablation));
        auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->result().configs.size() == 3, 20000);
        const AblationConfig& third = page->result().configs[2];
        clickValueBar(page, 2);
        QCOMPARE(w.currentPage(), PageId::Compare);
        auto* compare = qobject_cast<ComparePage*>(w.page(PageId::Compare));
        QTRY_VERIFY_WITH_TIMEOUT(compare->isContentReady() && !compare->result().runA.empty(), 20000);
        QCOMPARE(compare->result().runA, page->result().configs[1].runs.front());
        QCOMPARE(compare->result().runB, third.runs.front());

        // Mean per call and the per-call ratio come from the diff rows (by hand: total / count).
        QAbstractItemModelTester tester(compare->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        bool sawBoth = false;
        for (int r = 0; r < compare->model()->rowCount(); ++r) {
            const KernelDiffRow& row = compare->model()->rows()[size_t(r)];
            const QVariant ratio =
                compare->model()->index(r, KernelDiffModel::RatioColumn).data(Qt::UserRole);
            if (row.countA > 0 && row.countB > 0) {
                const double meanA = double(row.totalA) / double(row.countA);
                const double meanB = double(row.totalB) / double(row.countB);
                QCOMPARE(
                    compare->model()->index(r, KernelDiffModel::MeanAColumn).data(Qt::UserRole).toDouble(),
                    meanA);
                QCOMPARE(ratio.toDouble(), meanB / meanA);
                sawBoth = true;
            } else {
                QVERIFY(!ratio.isValid());
            }
        }
        QVERIFY(sawBoth);
    }

    // Issue 26.1: the bar click hands Compare the runs' ids, not their names: the ids the ablation
    // result carries beside the names, which are the stored runs' ids (RunRecord::id), and the
    // Compare page diffs exactly those runs.
    void ablationBarCarriesRunIds() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Ablation));
        auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->result().configs.size() == 3, 20000);
        for (const AblationConfig& c : page->result().configs) {
            QCOMPARE(c.runIds.size(), c.runs.size());
            for (std::size_t i = 0; i < c.runs.size(); ++i)
                QCOMPARE(c.runIds[i], w.session()->findRun(QString::fromStdString(c.runs[i]))->id);
        }
        QSignalSpy spy(page, &WorkbenchPage::compareRequested);
        clickValueBar(page, 2);
        QCOMPARE(spy.count(), 1);
        const RunId a = spy.at(0).at(0).value<RunId>(), b = spy.at(0).at(1).value<RunId>();
        QCOMPARE(a, w.session()->findRun(QStringLiteral("ckpt"))->id);
        QCOMPARE(b, w.session()->findRun(QStringLiteral("compile"))->id);
        QVERIFY(a != b);
        auto* compare = qobject_cast<ComparePage*>(w.page(PageId::Compare));
        QTRY_VERIFY_WITH_TIMEOUT(compare->isContentReady() && !compare->result().runA.empty(), 20000);
        QCOMPARE(compare->result().runA, w.session()->findRun(a)->info.name);
        QCOMPARE(compare->result().runB, w.session()->findRun(b)->info.name);
    }

    void kernelsCountAndFiltersFollowTheRun() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Kernels));
        w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("base"))->id);
        auto* page = qobject_cast<KernelsPage*>(w.page(PageId::Kernels));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->model()->rowCount() > 0, 20000);
        const int all = page->model()->rowCount();
        QCOMPARE(page->shownCountText(), QStringLiteral("%1 of %1 kernels shown").arg(all));
        auto* search = page->findChild<QLineEdit*>(QStringLiteral("kernelSearch"));
        QTest::keyClicks(search, QStringLiteral("gemm"));
        const int shown = page->proxy()->rowCount();
        QVERIFY(shown > 0 && shown < all);
        QCOMPARE(page->shownCountText(), QStringLiteral("%1 of %2 kernels shown").arg(shown).arg(all));
        // Occurrence starts count from the run start.
        QSignalSpy occ(page, &KernelsPage::occurrencesLoaded);
        page->view()->setCurrentIndex(page->proxy()->index(0, 0));
        QTRY_VERIFY_WITH_TIMEOUT(page->occurrences()->rowCount() > 0, 20000);
        Workspace ws(demo_.toStdString(), Workspace::Mode::ReadOnly);
        const Ns origin = runTimeOrigin(ws, ws.findRun("base")->id);
        const KernelOccurrence& first = page->occurrences()->occurrences().front();
        QCOMPARE(page->occurrences()
                     ->index(0, KernelOccurrencesModel::StartColumn)
                     .data(Qt::UserRole)
                     .toLongLong(),
                 qlonglong(first.start - origin));
        // Another run: the filter was for base's kernels and does not carry over.
        w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("ckpt"))->id);
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && search->text().isEmpty(), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(page->proxy()->rowCount(), page->model()->rowCount(), 20000);
    }

    // Double-clicking a kernel diff row opens the timeline with A above B, each searched for exactly
    // that kernel: as many matches in each run as the diff row counts launches. The first match in A is
    // selected; a kernel that only B ran (A has no match) is selected in B.
    void compareDiffRowOpensBothTimelines_data() {
        QTest::addColumn<bool>("onlyInB");
        QTest::newRow("kernel of both runs") << false;
        QTest::newRow("kernel only B ran") << true;
    }
    void compareDiffRowOpensBothTimelines() {
        QFETCH(bool, onlyInB);
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Compare));
        auto* compare = qobject_cast<ComparePage*>(w.page(PageId::Compare));
        compare->compare(w.session()->findRun(QStringLiteral("base"))->id,
                         w.session()->findRun(QStringLiteral("compile"))->id);
        QTRY_VERIFY_WITH_TIMEOUT(compare->isContentReady() && compare->result().runA == "base" &&
                                     compare->result().runB == "compile" && compare->model()->rowCount() > 0,
                                 20000);
        int row = -1;
        for (int r = 0; r < compare->model()->rowCount() && row < 0; ++r) {
            const KernelDiffRow& d = compare->model()->rows()[size_t(r)];
            if (onlyInB ? d.countA == 0 && d.countB > 0 : d.countA > 0 && d.countB > 0)
                row = r;
        }
        QVERIFY2(row >= 0, "the demo's base/compile diff has no such kernel");
        const KernelDiffRow diff = compare->model()->rows()[size_t(row)];
        const QModelIndex source = compare->model()->index(row, KernelDiffModel::NameColumn);
        const QString name = source.data(Qt::UserRole).toString();
        const QModelIndex at = compare->proxy()->mapFromSource(source);
        doubleClick(compare->view(), at);
        QCOMPARE(w.currentPage(), PageId::Timeline);

        TimelinePage* tl = qobject_cast<TimelineHostPage*>(w.page(PageId::Timeline))->timeline();
        TimelineView* a = tl->view();
        TimelineView* b = tl->compareView();
        QTRY_VERIFY_WITH_TIMEOUT(a->model() && b->model() && b->isVisible() && a->search() && b->search(),
                                 30000);
        QCOMPARE(a->model()->runName, std::string("base"));
        QCOMPARE(b->model()->runName, std::string("compile"));
        // The row counts kernel launches; the search also finds CPU ops of the same name (the Triton
        // launchers of torch.compile), so count the matches that are kernels.
        QCOMPARE(kernelMatches(a), qint64(diff.countA));
        QCOMPARE(kernelMatches(b), qint64(diff.countB));
        TimelineView* selectedIn = onlyInB ? b : a;
        QTRY_VERIFY_WITH_TIMEOUT(selectedIn->selected().valid(), 10000);
        const timeline::EventRef sel = selectedIn->selected();
        QCOMPARE(eventName(selectedIn, sel), name);
        const timeline::EventTrack& lane = selectedIn->model()->rows[sel.row].lanes[sel.lane];
        QCOMPARE(lane.kind(sel.index), timeline::EventKind::Kernel);
        // Zoomed onto it, with a quarter of its duration (at least 1 µs) on each side and the 5 % margin.
        const Ns s = lane.start(sel.index), e = lane.end(sel.index);
        QVERIFY(selectedIn->axis().start() < s && selectedIn->axis().end() > e);
        QVERIFY(selectedIn->axis().span() < 2 * (e - s) + 10'000);
        const QString count = tl->findChild<QLabel*>(QStringLiteral("searchCount"))->text();
        QVERIFY2(
            count.endsWith(QStringLiteral("B: %1").arg(QLocale().toString(qulonglong(b->search()->count())))),
            qPrintable(count));
    }

    // Double-clicking an insight's evidence that has a time range opens the timeline of that run zoomed
    // onto it: the event spanning exactly that range is selected, or (an idle gap) the range is marked.
    void insightEvidenceOpensTimeline() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Insights));
        w.workspaceDock()->selectRun(
            w.session()->findRun(QStringLiteral("ckpt"))->id); // the demo run with findings
        auto* page = qobject_cast<InsightsPage*>(w.page(PageId::Insights));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->model()->rowCount() > 0, 20000);
        QModelIndex target;
        Ns start = -1, end = -1;
        for (int r = 0; r < page->model()->rowCount() && !target.isValid(); ++r) {
            const QModelIndex top = page->model()->index(r, 0);
            for (int c = 0; c < page->model()->rowCount(top) && !target.isValid(); ++c) {
                const QModelIndex i = page->model()->index(c, 0, top);
                const InsightEvidence* e = page->model()->evidenceAt(i);
                if (e && e->start >= 0 && e->end > e->start)
                    target = i, start = e->start, end = e->end;
            }
        }
        QVERIFY2(target.isValid(), "no evidence with a time range among the demo's insights");
        page->view()->expand(target.parent());
        doubleClick(page->view(), target);
        QCOMPARE(w.currentPage(), PageId::Timeline);
        TimelineView* v = qobject_cast<TimelineHostPage*>(w.page(PageId::Timeline))->timeline()->view();
        QTRY_VERIFY_WITH_TIMEOUT(
            v->model() && v->model()->runName == "ckpt" && (v->selected().valid() || v->hasRange()), 30000);
        QVERIFY(v->axis().start() < start && v->axis().end() > end);
        if (v->selected().valid()) {
            const timeline::EventTrack& lane = v->model()->rows[v->selected().row].lanes[v->selected().lane];
            QCOMPARE(lane.start(v->selected().index), start);
            QCOMPARE(lane.end(v->selected().index), end);
        } else {
            QCOMPARE(v->rangeStart(), start);
            QCOMPARE(v->rangeEnd(), end);
        }
    }

private:
    // `w` at 1280x800 on `page`, shown, with the demo workspace open.
    bool openDemo(MainWindow& w, PageId page) {
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(page);
        w.show();
        return QTest::qWaitForWindowExposed(&w) && w.openWorkspace(demo_);
    }

    QTemporaryDir dir_;
    QString demo_;
};

QTEST_MAIN(TestDrillThrough)
#include "tst_drillthrough.moc"
