// Issue 26.3: the GUI only presents. Every change goes through the session's WorkspaceWriter: on a worker
// thread, with its own connection, in the order submitted, the session re-reading its catalogue after
// each; a failing edit reports its error as text and the next one still runs. On a read-only workspace
// (a tmpfs remounted read-only: the tests run as root, which ignores permission bits but not a read-only
// file system) the GUI connection still reads, nothing is submitted, and the controls that would write are
// disabled with the reason as their tooltip.
#include "AblationPage.h"
#include "DemoWorkspace.h"
#include "MainWindow.h"
#include "WorkspaceSession.h"
#include "WorkspaceWriter.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <sys/mount.h>

#include <atomic>
#include <filesystem>
#include <stdexcept>

using namespace cnp;
using namespace cnp::wb;

class TestWorkspaceWriter : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString demo_;

    QAction* action(const MainWindow& w, const QString& text) {
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == text)
                return a;
        return nullptr;
    }

private slots:
    void initTestCase() { demo_ = wbtest::buildDemoWorkspace(dir_, 2); }

    // Two edits submitted back to back run in order, off the GUI thread; the catalogue follows each.
    void editsRunInOrderOffTheGuiThread() {
        WorkspaceSession session;
        QString error;
        QVERIFY2(session.open(demo_, false, &error), qPrintable(error));
        QVERIFY(session.canWrite());
        QVERIFY(session.readOnlyReason().isEmpty());
        std::atomic<QThread*> editThread{nullptr};
        QStringList log;
        session.writer()->submit(
            QStringLiteral("rename"),
            [&](Workspace& ws) {
                editThread = QThread::currentThread();
                ws.renameRun("base", "first");
            },
            [&](const QString& e) { log << QStringLiteral("rename:") + e; });
        session.writer()->submit(
            QStringLiteral("rename again"), [](Workspace& ws) { ws.renameRun("first", "second"); },
            [&](const QString& e) { log << QStringLiteral("again:") + e; });
        QVERIFY(session.writer()->isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(log.size(), 2, 30000);
        QCOMPARE(log, (QStringList{QStringLiteral("rename:"), QStringLiteral("again:")}));
        QVERIFY(editThread.load() != nullptr);
        QVERIFY(editThread.load() != QThread::currentThread());
        QVERIFY(session.findRun(QStringLiteral("second")));
        QVERIFY(!session.findRun(QStringLiteral("base")));
        QTRY_VERIFY(!session.writer()->isBusy());
        session.writer()->submit(QStringLiteral("restore"),
                                 [](Workspace& ws) { ws.renameRun("second", "base"); });
        QTRY_VERIFY_WITH_TIMEOUT(session.findRun(QStringLiteral("base")), 30000);
    }

    // An edit that throws reports the exception's text to its submitter; the next edit still runs.
    void failureComesBackAsText() {
        WorkspaceSession session;
        QString error;
        QVERIFY(session.open(demo_, false, &error));
        QString first = QStringLiteral("unset"), second = QStringLiteral("unset");
        session.writer()->submit(
            QStringLiteral("bad"), [](Workspace& ws) { ws.renameRun("no-such-run", "x"); },
            [&](const QString& e) { first = e; });
        session.writer()->submit(
            QStringLiteral("fine"), [](Workspace& ws) { ws.setMeta("writer_test", "1"); },
            [&](const QString& e) { second = e; });
        QTRY_VERIFY_WITH_TIMEOUT(second != QStringLiteral("unset"), 30000);
        QVERIFY2(first.contains(QStringLiteral("no-such-run")), qPrintable(first));
        QCOMPARE(second, QString());
        QCOMPARE(session.workspace()->meta("writer_test").value_or(""), std::string("1"));
    }

    void readOnlyWorkspaceDisablesWrites() {
        const QString mnt = dir_.filePath(QStringLiteral("ro"));
        QDir().mkpath(mnt);
        if (::mount("cnp-test", mnt.toUtf8().constData(), "tmpfs", 0, "size=16m") != 0)
            QSKIP("cannot mount a tmpfs here: read-only workspaces untested");
        const QString ws = mnt + QStringLiteral("/demo.cnpdb");
        QVERIFY(QFile::copy(demo_, ws));
        QVERIFY(::mount(nullptr, mnt.toUtf8().constData(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
        {
            MainWindow w;
            w.setPersistSettings(false);
            w.showPage(PageId::Ablation);
            w.show();
            QVERIFY(w.openWorkspace(ws));
            WorkspaceSession* s = w.session();
            QVERIFY(!s->canWrite());
            QVERIFY2(s->readOnlyReason().contains(QStringLiteral("workspace is read-only")),
                     qPrintable(s->readOnlyReason()));
            QCOMPARE(s->runs().size(), std::size_t(2)); // it still reads
            QString refused;
            s->writer()->submit(
                QStringLiteral("rename"), [](Workspace& x) { x.renameRun("base", "x"); },
                [&](const QString& e) { refused = e; });
            QCOMPARE(refused, s->readOnlyReason()); // at once, nothing queued
            QVERIFY(!s->writer()->isBusy());
            for (const QString& text : {QStringLiteral("&Rename…"), QStringLiteral("Re&move")}) {
                QAction* a = action(w, text);
                QVERIFY2(a, qPrintable(text));
                QVERIFY(!a->isEnabled());
                QCOMPARE(a->toolTip(), s->readOnlyReason());
            }
            auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
            QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && !page->result().configs.empty(), 20000);
            for (const char* name : {"sourceBox", "mfuFlopsPerToken", "mfuApply"}) {
                auto* c = page->findChild<QWidget*>(QString::fromLatin1(name));
                QVERIFY2(c, name);
                QVERIFY2(!c->isEnabled(), name);
                QCOMPARE(c->toolTip(), s->readOnlyReason());
            }
        }
        ::umount2(mnt.toUtf8().constData(), MNT_DETACH);
    }
};

QTEST_MAIN(TestWorkspaceWriter)
#include "tst_workspacewriter.moc"
