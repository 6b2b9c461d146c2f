// Issue 15.9, drilling through the pages: a click on an ablation bar opens Compare for that
// configuration against the previous one; Compare's diff rows carry mean per call and the B/A ratio;
// the Kernels page counts "n of N kernels shown" as filters change and clears them for another run;
// occurrence starts count from the run start (the timeline's origin).
#include "AblationPage.h"
#include "ChartView.h"
#include "ComparePage.h"
#include "DemoWorkspace.h"
#include "KernelDiffModel.h"
#include "KernelFilterProxy.h"
#include "KernelOccurrencesModel.h"
#include "KernelStatsModel.h"
#include "KernelsPage.h"
#include "MainWindow.h"
#include "WorkspaceDock.h"
#include "store/RunTimeOrigin.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

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
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(PageId::Ablation);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openWorkspace(demo_));
        auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->result().configs.size() == 3, 20000);
        ChartView* c = page->valueChart();
        c->replot(QCustomPlot::rpImmediateRefresh);
        // The middle of the third configuration's bar.
        const AblationConfig& third = page->result().configs[2];
        const QPoint at(int(c->xAxis->coordToPixel(2)),
                        int(c->yAxis->coordToPixel(page->valueBars()->data()->at(2)->value / 2)));
        QTest::mouseClick(c, Qt::LeftButton, {}, at);
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

    void kernelsCountAndFiltersFollowTheRun() {
        MainWindow w;
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(PageId::Kernels);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openWorkspace(demo_));
        w.workspaceDock()->selectRun(QStringLiteral("base"));
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
        w.workspaceDock()->selectRun(QStringLiteral("ckpt"));
        QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && search->text().isEmpty(), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(page->proxy()->rowCount(), page->model()->rowCount(), 20000);
    }

private:
    QTemporaryDir dir_;
    QString demo_;
};

QTEST_MAIN(TestDrillThrough)
#include "tst_drillthrough.moc"
