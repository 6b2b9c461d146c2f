#include "ReportExportDialog.h"

#include "BackgroundTask.h"

#include "store/Workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace cnp::wb {

namespace {

// Per-mille of the work: building the model is most of it, writing the file the rest.
constexpr int kModelShare = 800;

QListWidget* checkList(const QStringList& items, const QStringList& data, bool reorderable) {
    auto* list = new QListWidget;
    for (int i = 0; i < items.size(); ++i) {
        auto* it = new QListWidgetItem(items[i], list);
        it->setData(Qt::UserRole, data[i]);
        it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
        it->setCheckState(Qt::Checked);
    }
    if (reorderable)
        list->setDragDropMode(QAbstractItemView::InternalMove);
    list->setMaximumHeight(150);
    return list;
}

// The file name's ending that a format writes: ".html", ".pdf", ".json"; "" for CSV (a folder).
QString formatSuffix(ReportFormat f) {
    switch (f) {
    case ReportFormat::Html:
        return QStringLiteral(".html");
    case ReportFormat::Pdf:
        return QStringLiteral(".pdf");
    case ReportFormat::Json:
        return QStringLiteral(".json");
    case ReportFormat::Csv:
        break;
    }
    return {};
}

// True when `path` ends with the ending of one of the report formats (what switching the format replaces).
qsizetype reportSuffixLength(const QString& path) {
    for (const QString& s :
         {QStringLiteral(".html"), QStringLiteral(".htm"), QStringLiteral(".pdf"), QStringLiteral(".json")})
        if (path.endsWith(s, Qt::CaseInsensitive))
            return s.size();
    return 0;
}

} // namespace

QString reportPathForFormat(const QString& path, ReportFormat format) {
    if (path.trimmed().isEmpty())
        return path;
    QString base = path;
    base.chop(reportSuffixLength(path));
    while (base.endsWith('/') && base.size() > 1)
        base.chop(1);
    return base + formatSuffix(format);
}

QStringList configurationsWithRuns(const std::vector<std::string>& plan, const std::vector<RunRecord>& runs) {
    QStringList out;
    for (const auto& c : plan)
        if (std::any_of(runs.begin(), runs.end(), [&](const RunRecord& r) { return r.info.config == c; }))
            out << QString::fromStdString(c);
    return out;
}

ReportExportDialog::ReportExportDialog(const QString& workspacePath, const QStringList& configurations,
                                       QWidget* parent)
    : QDialog(parent), workspacePath_(workspacePath), done_(std::make_shared<std::atomic<int>>(0)),
      cancel_(std::make_shared<std::atomic<bool>>(false)) {
    setWindowTitle(tr("Export Report"));
    configs_ = checkList(configurations, configurations, true);
    configs_->setObjectName(QStringLiteral("configurations"));
    QStringList titles, ids;
    for (ReportSection s : report::allSections()) {
        titles << QString::fromUtf8(report::sectionTitle(s).data(), int(report::sectionTitle(s).size()));
        ids << QString::fromUtf8(report::sectionId(s).data(), int(report::sectionId(s).size()));
    }
    sections_ = checkList(titles, ids, false);
    sections_->setObjectName(QStringLiteral("sections"));
    buildForm();
    poll_ = new QTimer(this);
    poll_->setInterval(100);
    connect(poll_, &QTimer::timeout, this, [this]() { progress_->setValue(done_->load()); });
    updateState();
}

void ReportExportDialog::buildForm() {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    format_ = new QComboBox;
    format_->setObjectName(QStringLiteral("format"));
    format_->addItem(tr("HTML (one file)"), int(ReportFormat::Html));
    format_->addItem(tr("PDF"), int(ReportFormat::Pdf));
    format_->addItem(tr("CSV (a folder, one file per table)"), int(ReportFormat::Csv));
    format_->addItem(tr("JSON"), int(ReportFormat::Json));
    form->addRow(tr("&Format:"), format_);
    path_ = new QLineEdit;
    path_->setObjectName(QStringLiteral("path"));
    auto* browse = new QPushButton(tr("&Browse…"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_);
    pathRow->addWidget(browse);
    auto* pathLabel = new QLabel(tr("&Save to:"));
    pathLabel->setBuddy(path_); // a row of two widgets has no buddy of its own: the '&' would show
    form->addRow(pathLabel, pathRow);
    title_ = new QLineEdit(QString::fromStdString(ReportOptions{}.title));
    form->addRow(tr("&Title:"), title_);
    form->addRow(tr("&Configurations:"), configs_);
    baseline_ = new QComboBox;
    baseline_->setObjectName(QStringLiteral("baseline"));
    form->addRow(tr("&Baseline:"), baseline_);
    form->addRow(tr("S&ections:"), sections_);
    paper_ = new QComboBox;
    paper_->setObjectName(QStringLiteral("paper"));
    paper_->addItem(QStringLiteral("A4"), int(PaperSize::A4));
    paper_->addItem(QStringLiteral("Letter"), int(PaperSize::Letter));
    form->addRow(tr("&Paper:"), paper_);
    timestamp_ = new QCheckBox(tr("Include the generation time"));
    timestamp_->setChecked(true);
    form->addRow(QString(), timestamp_);
    layout->addLayout(form);
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->hide();
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Close);
    export_ = buttons_->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &ReportExportDialog::startExport);
    connect(buttons_, &QDialogButtonBox::rejected, this, &ReportExportDialog::reject);
    connect(browse, &QPushButton::clicked, this, &ReportExportDialog::browse);
    connect(format_, &QComboBox::currentIndexChanged, this, [this]() {
        // The file name follows the format: a PDF is never written under report.html.
        setOutputPath(reportPathForFormat(outputPath(), format()));
        updateState();
    });
    connect(path_, &QLineEdit::textChanged, this, &ReportExportDialog::updateState);
    connect(configs_, &QListWidget::itemChanged, this, &ReportExportDialog::updateState);
    connect(configs_->model(), &QAbstractItemModel::rowsMoved, this, &ReportExportDialog::updateState);
    connect(sections_, &QListWidget::itemChanged, this, &ReportExportDialog::updateState);
}

QStringList ReportExportDialog::checkedConfigurations() const {
    QStringList out;
    for (int i = 0; i < configs_->count(); ++i)
        if (configs_->item(i)->checkState() == Qt::Checked)
            out << configs_->item(i)->data(Qt::UserRole).toString();
    return out;
}

void ReportExportDialog::updateState() {
    const QString keep = baseline_->currentText();
    const QStringList configs = checkedConfigurations();
    baseline_->blockSignals(true);
    baseline_->clear();
    baseline_->addItems(configs);
    baseline_->setCurrentIndex(std::max(0, int(configs.indexOf(keep))));
    baseline_->blockSignals(false);
    paper_->setEnabled(format() == ReportFormat::Pdf);
    bool anySection = false;
    for (int i = 0; i < sections_->count(); ++i)
        anySection = anySection || sections_->item(i)->checkState() == Qt::Checked;
    export_->setEnabled(!running_ && !configs.isEmpty() && anySection && !path_->text().trimmed().isEmpty());
}

ReportFormat ReportExportDialog::format() const {
    return static_cast<ReportFormat>(format_->currentData().toInt());
}

QString ReportExportDialog::outputPath() const {
    return path_->text().trimmed();
}

void ReportExportDialog::setOutputPath(const QString& path) {
    path_->setText(path);
}

ReportOptions ReportExportDialog::options() const {
    ReportOptions o;
    o.title = title_->text().trimmed().isEmpty() ? o.title : title_->text().trimmed().toStdString();
    o.includeTimestamp = timestamp_->isChecked();
    for (const QString& c : checkedConfigurations())
        o.ablation.order.push_back(c.toStdString());
    o.ablation.baseline = baseline_->currentText().toStdString();
    for (int i = 0; i < sections_->count(); ++i)
        if (sections_->item(i)->checkState() == Qt::Checked)
            o.sections.push_back(
                *report::sectionFromId(sections_->item(i)->data(Qt::UserRole).toString().toStdString()));
    o.paper = static_cast<PaperSize>(paper_->currentData().toInt());
    return o;
}

void ReportExportDialog::browse() {
    QString path;
    if (format() == ReportFormat::Csv) {
        path = QFileDialog::getExistingDirectory(this, tr("Export the report's tables to a folder"),
                                                 outputPath());
    } else {
        const QString filter = format() == ReportFormat::Pdf    ? tr("PDF (*.pdf)")
                               : format() == ReportFormat::Json ? tr("JSON (*.json)")
                                                                : tr("HTML (*.html *.htm)");
        path = QFileDialog::getSaveFileName(this, tr("Export Report"), outputPath(), filter);
    }
    if (!path.isEmpty())
        setOutputPath(path);
}

// An existing report (file or folder) is only replaced when the user says so.
bool ReportExportDialog::confirmOverwrite() {
    const QFileInfo target(outputPath());
    const bool occupied = target.isDir() ? !QDir(target.filePath()).isEmpty() : target.exists();
    if (!occupied)
        return true;
    const QString what = target.isDir()
                             ? tr("The folder %1 is not empty; its report tables will be replaced.")
                             : tr("%1 already exists.");
    return QMessageBox::question(this, tr("Replace the existing report?"),
                                 what.arg(QDir::toNativeSeparators(target.absoluteFilePath())) +
                                     tr("\nDo you want to replace it?"),
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

void ReportExportDialog::startExport() {
    if (running_ || !export_->isEnabled())
        return;
    if (!confirmOverwrite()) {
        status_->setText(tr("Not exported: choose another file name, or confirm replacing the report."));
        return;
    }
    running_ = true;
    done_->store(0);
    cancel_->store(false);
    progress_->setValue(0);
    progress_->show();
    status_->setText(tr("Building the report…"));
    poll_->start();
    updateState();
    std::string ws = workspacePath_.toStdString(), out = outputPath().toStdString(); // moved into the task
    const ReportOptions opt = options();
    const ReportFormat fmt = format();
    auto done = done_;
    auto cancel = cancel_;
    runInBackground<std::string>(
        this,
        [ws = std::move(ws), out = std::move(out), opt, fmt, done, cancel]() mutable {
            const Workspace w(ws, Workspace::Mode::ReadOnly);
            const ProgressSink sink{[done](double f) { done->store(static_cast<int>(f * kModelShare)); },
                                    cancel.get()};
            const auto model = report::buildReportModel(w, opt, sink);
            sink.checkCancel();
            writeReport(model, fmt, opt.paper, out);
            done->store(1000);
            return std::move(out);
        },
        [this](TaskOutcome<std::string>& o) {
            if (o.cancelled)
                finish(false, tr("Cancelled; nothing was written."));
            else if (o.value)
                finish(true, tr("Report written: %1").arg(QString::fromStdString(*o.value)));
            else
                finish(false, tr("The report could not be written: %1").arg(o.error));
        });
}

void ReportExportDialog::finish(bool ok, const QString& message) {
    running_ = false;
    poll_->stop();
    progress_->setValue(ok ? 1000 : 0);
    status_->setText(message);
    updateState();
    emit exportFinished(ok, message);
}

void ReportExportDialog::reject() {
    if (running_)
        cancel_->store(true); // the work stops at its next section; its outcome is dropped with the dialog
    QDialog::reject();
}

} // namespace cnp::wb
