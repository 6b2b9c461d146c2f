#pragma once
// File → Export Report… and File → Export Run Trace…: the format and the destination (a run too, for
// a trace). The format follows the path's suffix when the user types one; Browse offers the format's
// own filter (a folder for CSV). The export itself runs on a worker thread (MainWindow).
#include <QDialog>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QDialogButtonBox;

namespace cnp::wb {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kind { Report, Trace };
    enum class Format { Html, Pdf, Perfetto, Csv };
    // `runs` and `currentRun` are used by a trace export only.
    ExportDialog(Kind kind, const QStringList& runs, const QString& currentRun, QWidget* parent = nullptr);

    Format format() const;
    QString path() const;
    QString run() const;
    void setPath(const QString& path);
    void setFormat(Format f);

private:
    void browse();
    void updateOk();
    Kind kind_;
    QComboBox* run_ = nullptr;
    QComboBox* format_;
    QLineEdit* path_;
    QDialogButtonBox* buttons_;
};

} // namespace cnp::wb
