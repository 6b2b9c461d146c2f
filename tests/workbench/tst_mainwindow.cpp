// The main window: page switching (actions and Ctrl+1..6), settings round trip, the workspace dock on
// the demo workspace, the Run page's metadata, and a readable error for a file that is not a workspace.
#include "DemoWorkspace.h"
#include "MainWindow.h"
#include "RunMetadataModel.h"
#include "RunPage.h"
#include "RunTreeModel.h"
#include "TimelineHostPage.h"
#include "WorkbenchPage.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "store/Workspace.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QAction>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void pageSwitching_data();
    void pageSwitching();
    void settingsRoundTrip();
    void dockAndRunPage();
    void notAWorkspace();
    void kernelOccurrenceJumpsToTimeline();

private:
    QTemporaryDir dir_;
    QString demo_;
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(dir_.isValid());
    demo_ = wbtest::buildDemoWorkspace(dir_, 2);
}

void TestMainWindow::pageSwitching_data() {
    QTest::addColumn<int>("page");
    QTest::addColumn<QString>("objectName");
    for (PageId id : allPages())
        QTest::newRow(qPrintable(pageKey(id))) << int(id) << pageKey(id) + QStringLiteral("Page");
}

void TestMainWindow::pageSwitching() {
    QFETCH(int, page);
    QFETCH(QString, objectName);
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // Start from another page so the switch is observable.
    w.showPage(page == 0 ? PageId::Run : PageId::Ablation);
    QSignalSpy spy(&w, &MainWindow::currentPageChanged);
    // The page action carries Ctrl+<n>; trigger the shortcut's action as the key would.
    QAction* a = w.pageAction(PageId(page));
    QCOMPARE(a->shortcut(), QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + page)));
    a->trigger();
    QCOMPARE(int(w.currentPage()), page);
    QCOMPARE(spy.count(), 1);
    auto* stack = qobject_cast<QStackedWidget*>(w.centralWidget());
    QVERIFY(stack);
    QCOMPARE(stack->currentWidget()->objectName(), objectName);
    QVERIFY(a->isChecked());
    // And through the key itself when the window is active.
    w.showPage(page == 0 ? PageId::Run : PageId::Ablation);
    w.activateWindow();
    if (QTest::qWaitForWindowActive(&w, 1000)) {
        QTest::keyClick(&w, Qt::Key(Qt::Key_1 + page), Qt::ControlModifier);
        QCOMPARE(int(w.currentPage()), page);
    }
}

void TestMainWindow::settingsRoundTrip() {
    {
        MainWindow w;
        w.resize(900, 700);
        w.showPage(PageId::Kernels);
        w.saveSettings();
    }
    MainWindow w2;
    w2.restoreSettings();
    QCOMPARE(w2.currentPage(), PageId::Kernels);
    QVERIFY(!QSettings().value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
}

void TestMainWindow::dockAndRunPage() {
    QSettings().clear();
    MainWindow w;
    w.showPage(PageId::Run);
    w.show();
    QVERIFY(w.openWorkspace(demo_));
    QCOMPARE(w.recentWorkspaces().value(0), QFileInfo(demo_).absoluteFilePath());
    RunTreeModel* model = w.workspaceDock()->model();
    // Two configurations in plan order, one run each (buildDemoWorkspace(dir, 2)).
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("base"));
    QCOMPARE(model->index(1, 0).data().toString(), QStringLiteral("ckpt"));
    const QModelIndex run = model->index(0, 0, model->index(1, 0));
    QCOMPARE(run.data().toString(), QStringLiteral("ckpt"));
    QCOMPARE(model->index(0, RunTreeModel::RanksColumn, model->index(1, 0)).data().toInt(), 1);
    QCOMPARE(model->index(0, RunTreeModel::FormatColumn, model->index(1, 0)).data().toString(),
             QStringLiteral("kineto"));
    QCOMPARE(model->index(0, RunTreeModel::KindColumn, model->index(1, 0)).data().toString(),
             QStringLiteral("real"));
    const cnp::RunId ckpt = w.session()->findRun(QStringLiteral("ckpt"))->id;
    w.workspaceDock()->selectRun(ckpt);
    auto* runPage = qobject_cast<RunPage*>(w.page(PageId::Run));
    QVERIFY(runPage);
    QTRY_VERIFY(runPage->isContentReady());
    QCOMPARE(runPage->currentRun(), ckpt);
    QCOMPARE(runPage->metadataModel()->valueOf(QStringLiteral("Configuration")), QStringLiteral("ckpt"));
    QCOMPARE(runPage->metadataModel()->valueOf(QStringLiteral("Source format")), QStringLiteral("kineto"));
    QCOMPARE(runPage->metadataModel()->valueOf(QStringLiteral("Tokens per step")), QStringLiteral("8,192"));
    QVERIFY(w.windowTitle().contains(QStringLiteral("demo.cnpdb")));
}

void TestMainWindow::notAWorkspace() {
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    const QString path = dir_.filePath(QStringLiteral("notes.cnpdb"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("these are my notes, not a SQLite database\n");
    f.close();
    QVERIFY(!w.openWorkspace(path));
    QVERIFY(!w.session()->isOpen());
    QVERIFY2(w.lastErrorMessage().contains(QStringLiteral("notes.cnpdb")), qPrintable(w.lastErrorMessage()));
    auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QCOMPARE(box->text(), w.lastErrorMessage());
}

// A page's jump request (a kernel occurrence, an insight's evidence) switches to the timeline page and
// zooms the loaded run to the requested range.
void TestMainWindow::kernelOccurrenceJumpsToTimeline() {
    QSettings().clear();
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    QVERIFY(w.openWorkspace(demo_));
    w.showPage(PageId::Kernels);
    cnp::Workspace ws(demo_.toStdString(), cnp::Workspace::Mode::ReadOnly);
    const auto first = ws.runs().front();
    // A 2 ms window one step into the run: well inside its GPU activity.
    const cnp::Ns s = cnp::queryInt(ws.db(), "SELECT MIN(start_ns) FROM kernels WHERE run_id = " +
                                                 std::to_string(first.id.value())) +
                      50'000'000;
    const cnp::Ns e = s + 2'000'000;
    emit w.page(PageId::Kernels)->timelineJumpRequested(first.id, cnp::RankId(0), s, e);
    QCOMPARE(w.currentPage(), PageId::Timeline);
    auto* host = static_cast<TimelineHostPage*>(w.page(PageId::Timeline));
    // The run loads in the background; then the view shows the requested range (with a small margin).
    QTRY_VERIFY_WITH_TIMEOUT(host->timeline()->view()->axis().start() <= s &&
                                 host->timeline()->view()->axis().end() >= e &&
                                 host->timeline()->view()->axis().span() < 4 * (e - s),
                             20000);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
