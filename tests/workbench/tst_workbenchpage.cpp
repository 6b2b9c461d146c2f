// WorkbenchPage::waitUntilReady (what --screenshot waits on): true once the page reports ready, at once when
// it already is, false after the timeout when it never does; and it sleeps while it waits. The last is
// checked as the waiting thread's CPU time (not wall time): a loop that polled the event queue used a whole
// core for the wait, a blocking wait uses next to none.
#include "WorkbenchPage.h"
#include "WorkspaceSession.h"

#include <QTimer>
#include <QtTest>

#include <ctime>

using namespace cnp::wb;

namespace {

// A page that becomes ready `readyAfterMs` after it is refreshed (never when negative).
class DelayedPage : public WorkbenchPage {
public:
    DelayedPage(WorkspaceSession* s, int readyAfterMs) : WorkbenchPage(s), readyAfterMs_(readyAfterMs) {}
    void start() { refresh(); }

protected:
    void refresh() override {
        if (readyAfterMs_ >= 0)
            QTimer::singleShot(readyAfterMs_, this, [this]() { markReady(); });
    }

private:
    int readyAfterMs_;
};

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace

class TestWorkbenchPage : public QObject {
    Q_OBJECT
private slots:
    void waits_data() {
        QTest::addColumn<int>("readyAfterMs");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<bool>("ready");
        QTest::newRow("ready at once") << 0 << 60000 << true;
        QTest::newRow("ready later") << 50 << 60000 << true;
        QTest::newRow("never ready") << -1 << 300 << false;
    }
    void waits() {
        QFETCH(int, readyAfterMs);
        QFETCH(int, timeoutMs);
        QFETCH(bool, ready);
        WorkspaceSession session;
        DelayedPage page(&session, readyAfterMs);
        page.start();
        QCOMPARE(page.waitUntilReady(timeoutMs), ready);
        QCOMPARE(page.isContentReady(), ready);
        QVERIFY(page.waitUntilReady(0) == ready); // a ready page answers at once
    }

    // Waiting 500 ms for a page that never gets ready: the thread sleeps (a polling loop spent ~500 ms of
    // CPU here; 100 ms leaves room for a loaded machine's wake-ups).
    void sleepsWhileWaiting() {
        WorkspaceSession session;
        DelayedPage page(&session, -1);
        page.start();
        const double cpu0 = threadCpuMs();
        QVERIFY(!page.waitUntilReady(500));
        QVERIFY2(threadCpuMs() - cpu0 < 100, qPrintable(QString::number(threadCpuMs() - cpu0)));
    }
};

QTEST_MAIN(TestWorkbenchPage)
#include "tst_workbenchpage.moc"
