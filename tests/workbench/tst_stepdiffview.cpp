// The Compare page's step diff (StepDiffPanel, StepDiffView) on the real H200 runs (eager base versus
// torch.compile): "Diff this step" shows what diffSteps() computes, the kernel diff table and the lanes
// select together both ways, hovering and clicking hit the item drawn under the pointer.
#include "ComparePage.h"
#include "DemoWorkspace.h"
#include "KernelDiffModel.h"
#include "KernelFilterProxy.h"
#include "MainWindow.h"
#include "StepDiffPanel.h"
#include "StepDiffView.h"
#include "WorkspaceSession.h"
#include "requests/StepDiffRequest.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

class TestStepDiffView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString demo_;

    // The Compare page of `w` comparing base (A) with compile (B), its step diff shown.
    ComparePage* openStepDiff(MainWindow& w) {
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(PageId::Compare);
        w.show();
        auto* page = qobject_cast<ComparePage*>(w.page(PageId::Compare));
        if (!w.openWorkspace(demo_))
            return nullptr;
        page->compare(w.session()->findRun(QStringLiteral("base"))->id,
                      w.session()->findRun(QStringLiteral("compile"))->id);
        if (!QTest::qWaitFor([&]() { return page->isContentReady() && !page->result().kernels.empty(); },
                             30000))
            return nullptr;
        page->stepDiffAction()->trigger();
        if (!QTest::qWaitFor([&]() { return page->stepDiff()->report() && !page->stepDiff()->busy(); },
                             30000))
            return nullptr;
        return page;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        demo_ = wbtest::buildDemoWorkspace(dir_, 3); // base, ckpt, compile
    }

    void showsTheMedianStepDiff() {
        MainWindow w;
        auto* page = openStepDiff(w);
        QVERIFY(page);
        QVERIFY(page->stepDiffShown());
        QCOMPARE(page->stepDiffAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_D));
        QVERIFY(page->view()->actions().contains(page->stepDiffAction())); // the table's context menu
        Workspace ws(demo_.toStdString(), Workspace::Mode::ReadOnly);
        const auto expected = diffSteps(ws, std::string("base"), std::string("compile"), StepDiffChoice{});
        const auto* r = page->stepDiff()->report();
        QCOMPARE(r->a.step, expected.a.step);
        QCOMPARE(r->b.step, expected.b.step);
        QCOMPARE(r->alignment.totals.matched, expected.alignment.totals.matched);
        QCOMPARE(r->alignment.totals.added, expected.alignment.totals.added);
        QCOMPARE(r->alignment.totals.idle, expected.alignment.totals.idle);
        // The step box offers the median and the steps both runs have (1, 2, 3).
        QCOMPARE(page->stepDiff()->stepBox()->count(), 4);
        // Another step from the box.
        page->stepDiff()->stepBox()->setCurrentIndex(page->stepDiff()->stepBox()->findData(3));
        emit page->stepDiff()->stepBox()->activated(page->stepDiff()->stepBox()->currentIndex());
        QTRY_VERIFY_WITH_TIMEOUT(!page->stepDiff()->busy() && page->stepDiff()->report()->a.step == 3, 30000);
        page->showCharts();
        QVERIFY(!page->stepDiffShown());
    }

    // Table → lanes: the current row's kernel is outlined wherever it occurs in the step.
    void tableSelectsInLanes() {
        MainWindow w;
        auto* page = openStepDiff(w);
        QVERIFY(page);
        QAbstractItemModelTester tester(page->proxy(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const StepAlignment& s = page->stepDiff()->report()->alignment;
        const QString gemm = QStringLiteral("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT");
        int occurrences = 0; // items of that kernel in the step, from the analysis
        for (const auto& l : s.streams)
            for (const auto& i : l.items)
                occurrences += QString::fromStdString(s.name(i)) == gemm;
        QVERIFY(occurrences > 0);
        QModelIndex row;
        for (int r = 0; r < page->proxy()->rowCount(); ++r)
            if (page->proxy()->index(r, KernelDiffModel::NameColumn).data(Qt::UserRole).toString() == gemm)
                row = page->proxy()->index(r, KernelDiffModel::NameColumn);
        QVERIFY(row.isValid());
        page->view()->setCurrentIndex(row);
        StepDiffView* view = page->stepDiff()->view();
        QCOMPARE(view->highlightedKey(), gemm);
        QCOMPARE(view->highlightedCount(), occurrences);
        page->view()->selectionModel()->clearCurrentIndex();
        QCOMPARE(view->highlightedCount(), 0);
    }

    // Lanes → table: a click on an item makes its kernel the table's current row (filters that hide it
    // are cleared), and outlines it.
    void laneClickSelectsRow() {
        MainWindow w;
        auto* page = openStepDiff(w);
        QVERIFY(page);
        StepDiffView* view = page->stepDiff()->view();
        QTRY_VERIFY(view->isVisible() && view->width() > 400);
        const StepAlignment& s = *view->alignment();
        // The longest added item of lane 0: wide enough to hit in its middle.
        int item = -1;
        Ns longest = -1;
        for (std::size_t k = 0; k < s.streams[0].items.size(); ++k) {
            const auto& i = s.streams[0].items[k];
            if (i.kind == AlignKind::Added && s.durationB(i) > longest)
                longest = s.durationB(i), item = static_cast<int>(k);
        }
        QVERIFY(item >= 0);
        const QPoint at = view->itemCentre(0, item, true);
        const auto hit = view->hitAt(at);
        QCOMPARE(hit.lane, 0);
        QVERIFY(hit.sideB);
        const QString key = view->keyOf(hit.lane, hit.item);
        QVERIFY(key.startsWith(QStringLiteral("triton_"))); // compiled-only work is fused triton kernels
        page->proxy()->setColumnFilter(KernelDiffModel::ClassColumn, QStringLiteral("removed")); // hides it
        QSignalSpy activated(view, &StepDiffView::itemActivated);
        QTest::mouseClick(view, Qt::LeftButton, {}, at);
        QCOMPARE(activated.count(), 1);
        const QModelIndex current = page->view()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.siblingAtColumn(KernelDiffModel::NameColumn).data(Qt::UserRole).toString(), key);
        QCOMPARE(view->highlightedKey(), key);
        QVERIFY(view->highlightedCount() >= 1);
    }

    // Zoom and pan keep the timeline's habits: W zooms in at the pointer, F fits the step again.
    void zoomKeys() {
        MainWindow w;
        auto* page = openStepDiff(w);
        QVERIFY(page);
        StepDiffView* view = page->stepDiff()->view();
        const double full = view->viewLength();
        QTest::keyClick(view, Qt::Key_W);
        QVERIFY(view->viewLength() < full);
        QTest::keyClick(view, Qt::Key_D);
        QVERIFY(view->viewStart() > 0);
        QTest::keyClick(view, Qt::Key_F);
        QCOMPARE(view->viewLength(), full);
        QCOMPARE(view->viewStart(), 0.0);
    }
};

QTEST_MAIN(TestStepDiffView)
#include "tst_stepdiffview.moc"
