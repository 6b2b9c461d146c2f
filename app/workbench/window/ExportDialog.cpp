#include "ExportDialog.h"

#include "RunPicker.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace cnp::wb {

ExportDialog::ExportDialog(const std::vector<RunRecord>& runs, RunId currentRun, QWidget* parent)
    : QDialog(parent), run_(new QComboBox), format_(new QComboBox), path_(new QLineEdit),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
    setObjectName(QStringLiteral("exportTraceDialog"));
    setWindowTitle(tr("Export Run Trace"));
    auto* form = new QFormLayout(this);
    run_->setObjectName(QStringLiteral("exportRun"));
    listRuns(run_, runs, currentRun);
    form->addRow(tr("Run:"), run_);
    format_->addItem(tr("Perfetto / Chrome trace (JSON, .gz compresses)"), int(Format::Perfetto));
    format_->addItem(tr("CSV tables (a folder)"), int(Format::Csv));
    format_->setObjectName(QStringLiteral("exportFormat"));
    form->addRow(tr("Format:"), format_);
    auto* pathRow = new QHBoxLayout;
    path_->setObjectName(QStringLiteral("exportPath"));
    path_->setMinimumWidth(320);
    auto* browseButton = new QPushButton(tr("Browse…"));
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browseButton);
    form->addRow(tr("Save to:"), pathRow);
    form->addRow(buttons_);
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(path_, &QLineEdit::textChanged, this, [this](const QString& p) {
        // A typed suffix chooses the format (as `cnp export --out` does).
        if (p.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ||
            p.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive))
            setFormat(Format::Perfetto);
        updateOk();
    });
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

ExportDialog::Format ExportDialog::format() const {
    return Format(format_->currentData().toInt());
}

QString ExportDialog::path() const {
    return path_->text().trimmed();
}

RunId ExportDialog::run() const {
    return currentRunId(run_);
}

void ExportDialog::setPath(const QString& path) {
    path_->setText(path);
}

void ExportDialog::setFormat(Format f) {
    const int i = format_->findData(int(f));
    if (i >= 0)
        format_->setCurrentIndex(i);
}

void ExportDialog::browse() {
    QString chosen;
    switch (format()) {
    case Format::Perfetto:
        chosen =
            QFileDialog::getSaveFileName(this, windowTitle(), path(), tr("Trace JSON (*.json *.json.gz)"));
        break;
    case Format::Csv:
        chosen = QFileDialog::getExistingDirectory(this, windowTitle(), path());
        break;
    }
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

void ExportDialog::updateOk() {
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(!path().isEmpty() && run() != RunId());
}

} // namespace cnp::wb
