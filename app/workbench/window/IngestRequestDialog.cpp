#include "IngestRequestDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace cnp::wb {

QString IngestRequestDialog::suggestedRunName(const QStringList& paths) {
    if (paths.isEmpty())
        return {};
    QString name = QFileInfo(paths.front()).fileName();
    for (const char* ext : {".gz", ".json", ".pt.trace", ".sqlite", ".cnpt", ".nsys-rep"})
        if (name.endsWith(QLatin1String(ext)))
            name.chop(int(qstrlen(ext)));
    return name.isEmpty() ? QStringLiteral("run") : name;
}

IngestRequestDialog::IngestRequestDialog(const QStringList& paths, const QStringList& existingConfigs,
                                         const QStringList& existingRuns, QWidget* parent)
    : QDialog(parent), paths_(paths), existingRuns_(existingRuns) {
    setWindowTitle(tr("Ingest traces"));
    auto* layout = new QVBoxLayout(this);
    QStringList shown;
    for (const QString& p : paths.mid(0, 8))
        shown << QFileInfo(p).fileName();
    if (paths.size() > 8)
        shown << tr("… and %1 more").arg(paths.size() - 8);
    auto* files = new QLabel(tr("<b>%n source(s):</b> ", nullptr, int(paths.size())) +
                             shown.join(QStringLiteral(", ")));
    files->setWordWrap(true);
    layout->addWidget(files);
    auto* form = new QFormLayout;
    runName_ = new QLineEdit(suggestedRunName(paths));
    runName_->setObjectName(QStringLiteral("runName"));
    config_ = new QComboBox;
    config_->setObjectName(QStringLiteral("configuration"));
    config_->setEditable(true);
    config_->addItems(existingConfigs);
    config_->setEditText(runName_->text());
    config_->setToolTip(tr("Runs with the same configuration label are repeats of one ablation step"));
    form->addRow(tr("Run name:"), runName_);
    form->addRow(tr("Configuration:"), config_);
    layout->addLayout(form);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Ingest"));
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(runName_, &QLineEdit::textChanged, this, &IngestRequestDialog::validate);
    connect(config_, &QComboBox::editTextChanged, this, &IngestRequestDialog::validate);
    validate();
}

void IngestRequestDialog::validate() {
    const QString name = runName_->text().trimmed();
    QString problem;
    if (name.isEmpty())
        problem = tr("The run needs a name");
    else if (existingRuns_.contains(name))
        problem = tr("A run named '%1' already exists").arg(name);
    else if (config_->currentText().trimmed().isEmpty())
        problem = tr("The run needs a configuration label");
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setToolTip(problem);
}

IngestRequest IngestRequestDialog::request() const {
    IngestRequest r;
    for (const QString& p : paths_)
        r.inputs.push_back(p.toStdString());
    r.runName = runName_->text().trimmed().toStdString();
    r.config = config_->currentText().trimmed().toStdString();
    return r;
}

} // namespace cnp::wb
