#pragma once
// A plan-run job's logs inside the workbench (issue 32.5): double-clicking (or Enter on) a repeat's row of
// the Plans page's progress opens its output folder's *.log files (node0.log, one per node), each under its
// name, scrolled to the end, where a failure's cause is. Read once when opened; Reload reads them again.
#include <QDialog>
#include <QString>

class QPlainTextEdit;

namespace cnp::wb {

class LogViewerDialog : public QDialog {
    Q_OBJECT
public:
    // `title`: what the logs are of ("Base+Opt repeat 1"); `folder`: the job's output folder.
    LogViewerDialog(const QString& title, const QString& folder, QWidget* parent = nullptr);
    QString text() const;
    void reload();

    // Every *.log file directly in `folder`, by name, each after a "== NAME ==" line; the last
    // `maxBytes` of a longer file (cut at a line start, "[… N bytes before]" said first).
    static QString readLogs(const QString& folder, qint64 maxBytes = kMaxBytesPerLog);
    static constexpr qint64 kMaxBytesPerLog = qint64{4} << 20;

private:
    QString folder_;
    QPlainTextEdit* text_;
};

} // namespace cnp::wb
