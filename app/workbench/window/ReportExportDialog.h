#pragma once
// File → Export Report…: format (HTML, PDF, CSV folder, JSON), output path, which configurations in which
// order (check and drag), baseline, sections, paper size, title and timestamp; Export runs in the
// background with a progress bar and Cancel. The report itself comes from the core
// (report/ReportModel, report/ReportWriter): this dialog only collects the options and shows progress.
#include "core/RunRecord.h"
#include "report/ReportModel.h"
#include "report/ReportWriter.h"

#include <QDialog>
#include <QStringList>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTimer;

namespace cnp::wb {

// `path` with the ending of `format` in place of a report format's ending (report.html → report.pdf; a CSV
// report is a folder: report.html → report). An empty path stays empty.
QString reportPathForFormat(const QString& path, ReportFormat format);

// The configurations a report offers, checked: those of `plan` (Workspace::planOrder()) that have a run.
// A plan order may name a configuration whose jobs all failed; a report of it fails ("no runs with
// configuration ..."), so it is never part of the default selection.
QStringList configurationsWithRuns(const std::vector<std::string>& plan, const std::vector<RunRecord>& runs);

class ReportExportDialog : public QDialog {
    Q_OBJECT
public:
    // `configurations`: the workspace's configurations in plan order (all checked at first).
    ReportExportDialog(const QString& workspacePath, const QStringList& configurations,
                       QWidget* parent = nullptr);

    ReportOptions options() const; // from the controls
    ReportFormat format() const;
    QString outputPath() const;
    void setOutputPath(const QString& path);
    bool isExporting() const { return running_; }

public slots:
    void startExport();     // what Export does; exportFinished() follows
    void reject() override; // cancels a running export

signals:
    void exportFinished(bool ok, const QString& message);

private:
    void buildForm();
    void updateState(); // baseline choices, paper only for PDF, Export enabled when complete
    void browse();
    void finish(bool ok, const QString& message);
    bool confirmOverwrite(); // asks (QMessageBox::question) when the path already holds a report
    QStringList checkedConfigurations() const;

    QString workspacePath_;
    QComboBox* format_;
    QLineEdit* path_;
    QListWidget* configs_;
    QComboBox* baseline_;
    QListWidget* sections_;
    QComboBox* paper_;
    QLineEdit* title_;
    QCheckBox* timestamp_;
    QProgressBar* progress_;
    QLabel* status_;
    QDialogButtonBox* buttons_;
    QPushButton* export_;
    QTimer* poll_;
    bool running_ = false;
    // Shared with the background work, which may outlive the dialog: per-mille done, and the cancel flag.
    std::shared_ptr<std::atomic<int>> done_;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

} // namespace cnp::wb
