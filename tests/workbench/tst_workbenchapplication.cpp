// Issue 32.2: "terminate called after throwing 'cnp::SqliteError'": an exception out of a slot or an event
// handler ended the workbench. WorkbenchApplication::notify is the boundary: whatever escapes an event's
// delivery (a queued slot call, a timer, a key press) is caught, reported once (exceptionCaught, naming the
// error and the receiver's class) and the application goes on delivering events.
#include "WorkbenchApplication.h"
#include "core/InputError.h"
#include "store/Sqlite.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include <functional>

using namespace cnp;
using namespace cnp::wb;

namespace {

// A line edit whose key presses throw what the test asks.
class ThrowingEdit : public QLineEdit {
public:
    std::function<void()> onKey;

protected:
    void keyPressEvent(QKeyEvent* e) override {
        if (onKey)
            onKey();
        QLineEdit::keyPressEvent(e);
    }
};

} // namespace

class TestWorkbenchApplication : public QObject {
    Q_OBJECT
private slots:
    void theApplicationIsOne() { QVERIFY(WorkbenchApplication::instance()); }

    void anExceptionOutOfAQueuedCallIsCaught_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("SqliteError") << 0 << "ws.cnpdb: file is not a database";
        QTest::newRow("InputError") << 1 << "ws.cnpdb: no runs with configuration 'x'";
        QTest::newRow("not a std::exception") << 2 << "unknown error";
    }
    void anExceptionOutOfAQueuedCallIsCaught() {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        QSignalSpy caught(WorkbenchApplication::instance(), &WorkbenchApplication::exceptionCaught);
        QObject receiver;
        bool after = false;
        QMetaObject::invokeMethod(
            &receiver,
            [kind]() {
                if (kind == 0)
                    throw SqliteError("ws.cnpdb", "file is not a database", 26);
                if (kind == 1)
                    throw InputError("ws.cnpdb", "no runs with configuration 'x'");
                throw 42;
            },
            Qt::QueuedConnection);
        QMetaObject::invokeMethod(
            &receiver, [&after]() { after = true; }, Qt::QueuedConnection);
        QTRY_VERIFY(after); // the event loop goes on
        QCOMPARE(caught.count(), 1);
        const QString message = caught.at(0).at(0).toString();
        QVERIFY2(message.startsWith(expected), qPrintable(message));
        QVERIFY2(message.contains("MetaCall"), qPrintable(message)); // which delivery it was
    }

    void anExceptionOutOfATimerIsCaught() {
        QSignalSpy caught(WorkbenchApplication::instance(), &WorkbenchApplication::exceptionCaught);
        QTimer::singleShot(0, []() { throw SqliteError("ws.cnpdb", "database is locked", 5); });
        QTRY_COMPARE(caught.count(), 1);
        QVERIFY(caught.at(0).at(0).toString().startsWith("ws.cnpdb: database is locked"));
    }

    void anExceptionOutOfAnEventHandlerIsCaught() {
        QSignalSpy caught(WorkbenchApplication::instance(), &WorkbenchApplication::exceptionCaught);
        ThrowingEdit edit;
        edit.show();
        int presses = 0;
        edit.onKey = [&presses]() {
            if (++presses == 1)
                throw std::runtime_error("refresh failed");
        };
        QTest::keyClick(&edit, Qt::Key_A); // throws, caught
        QTest::keyClick(&edit, Qt::Key_B); // delivered as usual
        QCOMPARE(caught.count(), 1);
        QVERIFY2(caught.at(0).at(0).toString().contains("ThrowingEdit") ||
                     caught.at(0).at(0).toString().contains("QLineEdit"),
                 qPrintable(caught.at(0).at(0).toString()));
        QCOMPARE(edit.text(), QString("b"));
    }
};

int main(int argc, char** argv) {
    WorkbenchApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestWorkbenchApplication t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "tst_workbenchapplication.moc"
