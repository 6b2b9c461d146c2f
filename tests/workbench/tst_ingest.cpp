// Ingest from the window: runs on a worker thread while the GUI thread keeps serving events (the worker
// waits for the GUI thread to answer before it starts: the check does not depend on the machine's speed;
// the GUI thread's worst stall is measured by bench/gui_responsiveness.cpp), can be cancelled (workspace
// unchanged), and a bad file dropped on the window gives a readable error dialog and leaves the workspace
// unchanged.
#include "DemoWorkspace.h"
#include "IngestController.h"
#include "MainWindow.h"
#include "RunTreeModel.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"

#include <QMessageBox>
#include <QMimeData>
#include <QSemaphore>
#include <QStandardPaths>
#include <QThread>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

static int runCount(const QString& path) {
    Workspace ws(path.toStdString(), Workspace::Mode::ReadOnly);
    return int(ws.runs().size());
}

class TestIngest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void ingestOffGuiThread();
    void cancel();
    void badFileDrop_data();
    void badFileDrop();

private:
    QTemporaryDir dir_;
    QString ws_;
};

void TestIngest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    ws_ = dir_.filePath(QStringLiteral("ingest.cnpdb"));
}

void TestIngest::ingestOffGuiThread() {
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    QVERIFY(w.openWorkspace(ws_, true));
    QSignalSpy done(&w, &MainWindow::ingestFinished);
    QSignalSpy progress(w.ingestController(), &IngestController::progressChanged);
    IngestRequest r;
    r.inputs = {wbtest::demoTracePath(QStringLiteral("base")).toStdString()};
    r.runName = "base";
    r.config = "base";
    // The worker blocks until the GUI thread has served an event posted from the worker: were the ingest
    // on the GUI thread, that event could not run and the wait would give up (a hang guard, 60 s).
    QThread* workerThread = nullptr;
    bool guiServedDuringIngest = false;
    QSemaphore served;
    w.ingestController()->setWorkerProbe([&]() {
        workerThread = QThread::currentThread();
        QMetaObject::invokeMethod(
            qApp, [&served]() { served.release(); }, Qt::QueuedConnection);
        guiServedDuringIngest = served.tryAcquire(1, 60000);
    });
    QVERIFY(w.startIngest(r));
    QVERIFY(w.ingestController()->isRunning());
    QVERIFY(done.wait(120000));
    QVERIFY(workerThread);
    QVERIFY(workerThread != QCoreApplication::instance()->thread());
    QVERIFY(guiServedDuringIngest);
    QCOMPARE(done.first().first().value<RunId>(), w.session()->findRun(QStringLiteral("base"))->id);
    QVERIFY(progress.count() >= 1);
    QCOMPARE(progress.last().first().toDouble(), 1.0);
    QCOMPARE(w.session()->runs().size(), size_t(1));
    QCOMPARE(w.workspaceDock()->model()->rowCount(), 1);
    QCOMPARE(w.workspaceDock()->selectedRun(), w.session()->findRun(QStringLiteral("base"))->id);
    QCOMPARE(runCount(ws_), 1);
}

void TestIngest::cancel() {
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    QVERIFY(w.openWorkspace(ws_));
    const int before = runCount(ws_);
    QSignalSpy cancelled(w.ingestController(), &IngestController::cancelled);
    QSignalSpy finished(&w, &MainWindow::ingestFinished);
    IngestRequest r;
    r.inputs = {wbtest::demoTracePath(QStringLiteral("ckpt")).toStdString()};
    r.runName = "ckpt-cancelled";
    r.config = "ckpt";
    QVERIFY(w.startIngest(r));
    w.ingestController()->cancel(); // what the progress dialog's Cancel button does
    QVERIFY(cancelled.wait(120000));
    QCOMPARE(finished.count(), 0);
    QVERIFY(!w.ingestController()->isRunning());
    QCOMPARE(runCount(ws_), before);
    QVERIFY(!w.session()->findRun(QStringLiteral("ckpt-cancelled")));
    QVERIFY(w.lastErrorMessage().isEmpty()); // a cancel is not an error
}

void TestIngest::badFileDrop_data() {
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("truncated json") << "broken.json" << QByteArray("{\"traceEvents\": [ {\"ph\": \"X\", ");
    QTest::newRow("not a trace") << "notes.json" << QByteArray("hello, this is not a trace\n");
    QTest::newRow("empty") << "empty.json" << QByteArray();
}

void TestIngest::badFileDrop() {
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);
    const QString path = dir_.filePath(fileName);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    QVERIFY(w.openWorkspace(ws_));
    const int before = runCount(ws_);
    QStringList asked;
    w.setIngestRequestProvider([&](const QStringList& paths) -> std::optional<IngestRequest> {
        asked = paths;
        IngestRequest r;
        for (const QString& p : paths)
            r.inputs.push_back(p.toStdString());
        r.runName = "dropped";
        r.config = "dropped";
        return r;
    });
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QCOMPARE(asked, QStringList{path});
    QTRY_VERIFY_WITH_TIMEOUT(!w.lastErrorMessage().isEmpty(), 60000);
    QVERIFY2(w.lastErrorMessage().contains(fileName), qPrintable(w.lastErrorMessage()));
    QVERIFY(w.lastErrorMessage().contains(QStringLiteral("unchanged")));
    auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QCOMPARE(runCount(ws_), before);
    QVERIFY(!w.session()->findRun(QStringLiteral("dropped")));
}

QTEST_MAIN(TestIngest)
#include "tst_ingest.moc"
