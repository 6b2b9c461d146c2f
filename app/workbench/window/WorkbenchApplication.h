#pragma once
// The workbench's QApplication: the last boundary for an exception on the GUI thread. Qt does not carry
// exceptions through its event loop (one escaping a slot, an event handler or a queued call ends the process
// with std::terminate: issue 32.2, "terminate called after throwing 'cnp::SqliteError'" right after an
// ingest). notify() delivers every event, queued slot calls included, so it catches what escapes them,
// writes one line to stderr and emits exceptionCaught(); the main window shows it in the status bar and the
// application keeps running. Code that can fail catches where it knows what to say; this is the net
// beneath it. Work on other threads goes through runInBackground (BackgroundTask.h), which catches there.
#include <QApplication>
#include <QString>

namespace cnp::wb {

class WorkbenchApplication : public QApplication {
    Q_OBJECT
public:
    WorkbenchApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;

    // The running WorkbenchApplication; nullptr under a plain QApplication (tests).
    static WorkbenchApplication* instance();
    // "what() (while delivering EVENT to CLASS)": what the status bar and stderr say.
    static QString describe(const QString& what, QObject* receiver, QEvent* event);

signals:
    void exceptionCaught(const QString& message);

private:
    void report(const QString& what, QObject* receiver, QEvent* event);
};

} // namespace cnp::wb
