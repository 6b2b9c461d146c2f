// Ingest from the window: runs on a worker thread (the GUI thread's worst stall is measured by a
// watchdog timer and must stay <= 100 ms), can be cancelled (workspace unchanged), and a bad file dropped
// on the window gives a readable error dialog and leaves the workspace unchanged.
#include "DemoWorkspace.h"
#include "IngestController.h"
#include "MainWindow.h"
#include "RunTreeModel.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"

#include <QElapsedTimer>
#include <QMessageBox>
#include <QMimeData>
#include <QStandardPaths>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

// Measures the longest interval between two consecutive ticks of a 5 ms GUI-thread timer: any time
// the GUI thread is blocked shows up as a long gap.
class StallWatchdog : public QObject {
public:
    StallWatchdog() {
        timer_.setInterval(5);
        connect(&timer_, &QTimer::timeout, this, [this]() {
            const qint64 now = clock_.nsecsElapsed();
            if (last_ >= 0 && now - last_ > worst_) {
                worst_ = now - last_;
                worstAt_ = last_;
            }
            last_ = now;
        });
        clock_.start();
        timer_.start();
    }
    double worstMs() const { return double(worst_) / 1e6; }
    // When the worst stall began, in ms since the watchdog started.
    double worstAtMs() const { return double(worstAt_) / 1e6; }
    double nowMs() const { return double(clock_.nsecsElapsed()) / 1e6; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = -1;
    qint64 worst_ = 0;
    qint64 worstAt_ = 0;
};

// The GUI thread's budget during an ingest and the refresh after it: 100 ms (issue 15). A sanitized build
// runs the same code two to three times slower (worst stall measured here: about 40 ms optimised, 80 ms
// under ASan + UBSan alone, 181 ms beside a second sanitized test in CI's ctest -j2), so there it is 3x.
#ifdef CNP_SANITIZED_BUILD
constexpr double kStallLimitMs = 300.0;
#else
constexpr double kStallLimitMs = 100.0;
#endif

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
    StallWatchdog watchdog;
    QVERIFY(w.startIngest(r));
    QVERIFY(w.ingestController()->isRunning());
    QVERIFY(done.wait(120000));
    const double finishedAt = watchdog.nowMs();
    QTest::qWait(200); // the GUI's reaction to the new run (dock, pages) counts too
    qInfo("worst GUI-thread stall during ingest of demo_base.json.gz: %.1f ms at %.0f ms (ingest finished at "
          "%.0f ms; limit %.0f ms)",
          watchdog.worstMs(), watchdog.worstAtMs(), finishedAt, kStallLimitMs);
    QVERIFY2(watchdog.worstMs() <= kStallLimitMs, qPrintable(QString::number(watchdog.worstMs())));
    QCOMPARE(done.first().first().toString(), QStringLiteral("base"));
    QVERIFY(progress.count() >= 1);
    QCOMPARE(progress.last().first().toDouble(), 1.0);
    QCOMPARE(w.session()->runs().size(), size_t(1));
    QCOMPARE(w.workspaceDock()->model()->rowCount(), 1);
    QCOMPARE(w.workspaceDock()->selectedRun(), QStringLiteral("base"));
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
