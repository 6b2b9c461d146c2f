// Issue 15.6: the workspace is live. A run another program adds appears without reopening (the session
// watches the file); View → Reload is F5; and the rename → select → Delete sequence never leaves a
// page saying the workspace has no runs while it has some.
#include "DemoWorkspace.h"
#include "KernelsPage.h"
#include "MainWindow.h"
#include "RunTreeModel.h"
#include "WorkbenchPage.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "store/Sqlite.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace cnp;
using namespace cnp::wb;

namespace {

// Answers the next modal dialog once it is up: `answer` gets it (the test's "user"). The returned
// timer polls until then; the caller deletes it when the test is over.
QTimer* whenModal(std::function<void(QWidget*)> answer) {
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, answer]() {
        if (QWidget* w = QApplication::activeModalWidget()) {
            poll->stop();
            answer(w);
        }
    });
    poll->start(20);
    return poll;
}

QAction* actionNamed(MainWindow& w, const QString& text) {
    for (QAction* a : w.findChildren<QAction*>())
        if (QString(a->text()).remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

// Every visible text of the page that claims an empty workspace.
QString noRunsClaim(QWidget* page) {
    for (const QLabel* l : page->findChildren<QLabel*>())
        if (l->isVisible() && l->text().contains(QStringLiteral("no runs"), Qt::CaseInsensitive))
            return l->text();
    return {};
}

} // namespace

class TestLiveWorkspace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void runAddedElsewhereAppears() {
        QTemporaryDir dir;
        const QString path = wbtest::buildDemoWorkspace(dir, 2);
        MainWindow w;
        w.setPersistSettings(false);
        w.show();
        QVERIFY(w.openWorkspace(path));
        QCOMPARE(w.session()->runs().size(), std::size_t(2));
        {
            // Another connection, as `cnp ingest` in another process would be.
            Workspace other(path.toStdString(), Workspace::Mode::ReadWrite);
            IngestRequest r;
            r.inputs = {wbtest::demoTracePath(QStringLiteral("compile")).toStdString()};
            r.runName = "compile";
            r.config = "compile";
            r.tokensPerStep = 8192;
            ingest(other, r);
        }
        QTRY_COMPARE_WITH_TIMEOUT(w.session()->runs().size(), std::size_t(3), 10000);
        QVERIFY(w.workspaceDock()
                    ->model()
                    ->indexOfRun(w.session()->findRun(QStringLiteral("compile"))->id)
                    .isValid());
    }

    void reloadIsF5() {
        MainWindow w;
        w.setPersistSettings(false);
        QCOMPARE(w.reloadAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QTemporaryDir dir;
        QVERIFY(w.openWorkspace(wbtest::buildDemoWorkspace(dir, 1)));
        QSignalSpy spy(w.session(), &WorkspaceSession::runsChanged);
        w.reloadAction()->trigger();
        QCOMPARE(spy.count(), 1);
    }

    // Issue 32.2: a read that fails right after an ingest (seen: "not an SQLite database") was thrown out
    // of a slot (the timeline's run list, on runsChanged) and ended the application. Here the runs row is
    // made unreadable (a value out of its physical range, refused when read): the window keeps its run
    // list, the read is retried once, and then the status bar says what failed; a good read recovers.
    void aFailedReadKeepsTheWindowAndSaysSo() {
        QTemporaryDir dir;
        const QString path = wbtest::buildDemoWorkspace(dir, 1);
        MainWindow w;
        w.setPersistSettings(false);
        w.show();
        QVERIFY(w.openWorkspace(path));
        Workspace other(path.toStdString(), Workspace::Mode::ReadWrite);
        execSql(other.db(), "UPDATE runs SET tokens_per_step = 1e308");
        QSignalSpy failed(w.session(), &WorkspaceSession::catalogueReadFailed);
        w.reloadAction()->trigger(); // threw out of TimelinePage::refreshRuns before
        QCOMPARE(w.session()->runs().size(), std::size_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000); // after one retry
        QVERIFY2(failed.at(0).at(0).toString().contains("tokens_per_step"),
                 qPrintable(failed.at(0).at(0).toString()));
        QTRY_VERIFY(w.statusBar()->currentMessage().contains("Cannot "));
        QCOMPARE(w.session()->runs().size(), std::size_t(1));
        execSql(other.db(), "UPDATE runs SET tokens_per_step = 8192");
        QSignalSpy changed(w.session(), &WorkspaceSession::runsChanged);
        w.reloadAction()->trigger();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(w.session()->runs().front().info.tokensPerStep, 8192.0);
    }

    void renameSelectDeleteKeepsRuns_data() {
        QTest::addColumn<int>("page");
        for (PageId id : {PageId::Ablation, PageId::Kernels, PageId::Insights, PageId::Run})
            QTest::newRow(qPrintable(pageKey(id))) << int(id);
    }
    void renameSelectDeleteKeepsRuns() {
        QFETCH(int, page);
        QTemporaryDir dir;
        const QString path = wbtest::buildDemoWorkspace(dir, 3);
        MainWindow w;
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(PageId(page));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openWorkspace(path));
        QTreeView* tree = w.workspaceDock()->view();
        RunTreeModel* model = w.workspaceDock()->model();
        // Rename "base" to "base2" through Run → Rename and its dialog.
        w.workspaceDock()->selectRun(w.session()->findRun(QStringLiteral("base"))->id);
        std::unique_ptr<QTimer> renameAnswer(whenModal([](QWidget* d) {
            auto* input = qobject_cast<QInputDialog*>(d);
            QVERIFY(input);
            input->setTextValue(QStringLiteral("base2"));
            input->accept();
        }));
        actionNamed(w, QStringLiteral("Rename…"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->findRun(QStringLiteral("base2")), 10000);
        // Select "ckpt" with the mouse, then Delete and confirm.
        QCoreApplication::processEvents();
        const RunId ckptId = w.session()->findRun(QStringLiteral("ckpt"))->id;
        const QModelIndex ckpt = model->indexOfRun(ckptId);
        QVERIFY(ckpt.isValid());
        tree->scrollTo(ckpt);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(ckpt).center());
        QCOMPARE(w.workspaceDock()->selectedRun(), ckptId);
        std::unique_ptr<QTimer> removeAnswer(whenModal([](QWidget* d) {
            auto* box = qobject_cast<QMessageBox*>(d);
            QVERIFY(box);
            box->button(QMessageBox::Yes)->click();
        }));
        QAction* remove = actionNamed(w, QStringLiteral("Remove"));
        QCOMPARE(remove->shortcut(), QKeySequence(QKeySequence::Delete));
        remove->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.session()->findRun(QStringLiteral("ckpt")), 10000);
        QCOMPARE(w.session()->runs().size(), std::size_t(2));
        WorkbenchPage* p = w.page(PageId(page));
        QTRY_VERIFY_WITH_TIMEOUT(p->isContentReady(), 20000);
        QCoreApplication::processEvents();
        const QString claim = noRunsClaim(p);
        QVERIFY2(claim.isEmpty(), qPrintable(claim));
    }
};

QTEST_MAIN(TestLiveWorkspace)
#include "tst_liveworkspace.moc"
