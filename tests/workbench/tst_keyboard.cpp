// Issue 32.6, the main flows without the mouse: Enter on a kernel occurrence, an insight's evidence or a
// Ranks heatmap cell does what a double-click (a click for the heatmap) does; Tab leaves every table and
// tree for the next control (item views no longer take it for cell-to-cell moves); Ctrl+F puts the focus
// in the current page's search field, so typed letters go there (not to the timeline's W/A/S/D keys).
#include "DemoWorkspace.h"
#include "InsightsModel.h"
#include "InsightsPage.h"
#include "KernelOccurrencesModel.h"
#include "KernelStatsModel.h"
#include "KernelsPage.h"
#include "MainWindow.h"
#include "RanksPage.h"
#include "TimelineHostPage.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

class TestKeyboard : public QObject {
    Q_OBJECT

    // `w` at 1280x800 on `page`, shown and active, with the demo workspace open.
    bool openDemo(MainWindow& w, PageId page) {
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(page);
        w.show();
        w.activateWindow();
        return QTest::qWaitForWindowExposed(&w) && w.openWorkspace(demo_);
    }
    // Enter on `index` of `view`, with the keyboard focus there (as after arrowing to it).
    static void pressEnterOn(QAbstractItemView* view, const QModelIndex& index) {
        view->setCurrentIndex(index);
        view->setFocus(Qt::TabFocusReason);
        QTest::keyClick(view, Qt::Key_Return);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        demo_ = wbtest::buildDemoWorkspace(dir_, 2);
    }

    void enterOnAKernelOccurrenceOpensTheTimeline() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Kernels));
        auto* page = qobject_cast<KernelsPage*>(w.page(PageId::Kernels));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->model()->rowCount() > 0, 20000);
        auto* occurrencesView = page->findChild<QTableView*>("occurrences");
        QVERIFY(occurrencesView);
        QTableView* statsView = nullptr;
        for (QTableView* v : page->findChildren<QTableView*>())
            if (v != occurrencesView)
                statsView = v;
        statsView->setCurrentIndex(statsView->model()->index(0, 0));
        QTRY_VERIFY_WITH_TIMEOUT(page->occurrences()->rowCount() > 0, 20000);
        const KernelOccurrence o = page->occurrences()->occurrences().front();
        pressEnterOn(occurrencesView, occurrencesView->model()->index(0, 0));
        QCOMPARE(w.currentPage(), PageId::Timeline);
        TimelineView* v = qobject_cast<TimelineHostPage*>(w.page(PageId::Timeline))->timeline()->view();
        QTRY_VERIFY_WITH_TIMEOUT(v->model() && v->selected().valid(), 30000);
        const timeline::EventTrack& lane = v->model()->rows[v->selected().row].lanes[v->selected().lane];
        QCOMPARE(lane.start(v->selected().index), o.start);
    }

    void enterOnAnInsightsEvidenceOpensTheTimeline() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Insights));
        w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("ckpt"))->id);
        auto* page = qobject_cast<InsightsPage*>(w.page(PageId::Insights));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->model()->rowCount() > 0, 20000);
        QModelIndex target;
        for (int r = 0; r < page->model()->rowCount() && !target.isValid(); ++r) {
            const QModelIndex top = page->model()->index(r, 0);
            for (int c = 0; c < page->model()->rowCount(top) && !target.isValid(); ++c) {
                const QModelIndex i = page->model()->index(c, 0, top);
                const InsightEvidence* e = page->model()->evidenceAt(i);
                if (e && e->start >= 0 && e->end > e->start)
                    target = i;
            }
        }
        QVERIFY2(target.isValid(), "no evidence with a time range among the demo's insights");
        page->view()->expand(target.parent());
        pressEnterOn(page->view(), target);
        QCOMPARE(w.currentPage(), PageId::Timeline);
    }

    void enterOnAHeatmapCellOpensTheTimeline() {
        MainWindow w;
        QVERIFY(openDemo(w, PageId::Ranks));
        auto* page = qobject_cast<RanksPage*>(w.page(PageId::Ranks));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->heatmapView()->model()->rowCount() > 0 &&
                                     page->heatmapView()->model()->columnCount() > 1,
                                 20000);
        QSignalSpy jumps(page, &WorkbenchPage::timelineJumpRequested);
        pressEnterOn(page->heatmapView(), page->heatmapView()->model()->index(0, 1));
        QCOMPARE(jumps.count(), 1);
        QCOMPARE(w.currentPage(), PageId::Timeline);
    }

    // Tab leaves a table: the focus moves on to another control.
    void tabLeavesEveryTable_data() {
        QTest::addColumn<int>("page");
        for (PageId id : {PageId::Ablation, PageId::Compare, PageId::Kernels, PageId::Insights, PageId::Run,
                          PageId::Ranks})
            QTest::newRow(qPrintable(pageKey(id))) << int(id);
    }
    void tabLeavesEveryTable() {
        QFETCH(int, page);
        MainWindow w;
        QVERIFY(openDemo(w, PageId(page)));
        WorkbenchPage* p = w.page(PageId(page));
        QTRY_VERIFY_WITH_TIMEOUT(p->isContentReady(), 30000);
        int views = 0;
        for (QAbstractItemView* v : p->findChildren<QAbstractItemView*>()) {
            if (!v->isVisible() || v->focusPolicy() == Qt::NoFocus)
                continue;
            ++views;
            QVERIFY2(!v->tabKeyNavigation(), qPrintable(v->metaObject()->className()));
            if (v->model() && v->model()->rowCount() > 0 && v->model()->columnCount() > 1)
                v->setCurrentIndex(v->model()->index(0, 0));
            v->setFocus(Qt::TabFocusReason);
            QTRY_VERIFY(v->hasFocus());
            QTest::keyClick(v, Qt::Key_Tab);
            QVERIFY2(!v->hasFocus(), qPrintable(v->metaObject()->className()));
        }
        QVERIFY(views > 0);
    }

    void ctrlFFocusesTheSearch_data() {
        QTest::addColumn<int>("page");
        QTest::addColumn<QString>("field");
        QTest::newRow("kernels") << int(PageId::Kernels) << "kernelSearch";
        QTest::newRow("compare") << int(PageId::Compare) << "diffSearch";
        QTest::newRow("timeline") << int(PageId::Timeline) << "searchEdit";
    }
    void ctrlFFocusesTheSearch() {
        QFETCH(int, page);
        QFETCH(QString, field);
        MainWindow w;
        QVERIFY(openDemo(w, PageId(page)));
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTRY_VERIFY_WITH_TIMEOUT(w.page(PageId(page))->isContentReady(), 30000);
        auto* find = w.findChild<QAction*>("findAction");
        QVERIFY(find);
        QCOMPARE(find->shortcut(), QKeySequence(QKeySequence::Find));
        w.workspaceDock()->setFocus(); // somewhere else first
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QWidget* focus = QApplication::focusWidget();
        QVERIFY(focus);
        QCOMPARE(focus->objectName(), field);
        QTest::keyClicks(focus, "gemm");
        QCOMPARE(qobject_cast<QLineEdit*>(focus)->text(), QString("gemm"));
    }

private:
    QTemporaryDir dir_;
    QString demo_;
};

QTEST_MAIN(TestKeyboard)
#include "tst_keyboard.moc"
