#pragma once
// File → Export Run Trace…: the run, the format and the destination. The format follows the path's suffix
// when the user types one; Browse offers the format's own filter (a folder for CSV). The export itself
// runs on a worker thread (MainWindow). Reports have their own dialog (ReportExportDialog).
#include "store/Workspace.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QLineEdit;
class QDialogButtonBox;

namespace cnp::wb {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    enum class Format { Perfetto, Csv };
    // Lists `runs` by name, `currentRun` selected.
    ExportDialog(const std::vector<RunRecord>& runs, RunId currentRun, QWidget* parent = nullptr);

    Format format() const;
    QString path() const;
    RunId run() const;
    void setPath(const QString& path);
    void setFormat(Format f);

private:
    void browse();
    void updateOk();
    QComboBox* run_;
    QComboBox* format_;
    QLineEdit* path_;
    QDialogButtonBox* buttons_;
};

} // namespace cnp::wb
