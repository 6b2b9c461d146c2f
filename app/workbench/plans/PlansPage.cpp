#include "PlansPage.h"

#include "BackgroundTask.h"
#include "LogViewerDialog.h"
#include "PlanEditor.h"
#include "PlanForm.h"
#include "PlanRunner.h"
#include "WorkspaceSession.h"

#include "plan/PlanLint.h"
#include "plan/PlanTextEdit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cnp::wb {
namespace {

constexpr int kLintDelayMs = 300; // typing pauses this long before the plan is linted
enum ProgressColumn { WhatColumn, StateColumn, NoteColumn };
constexpr int kLogFolderRole = Qt::UserRole; // a repeat row's output folder (its logs)

// The folder a failure message names ("...; logs in DIR"), "" when none.
QString logFolderOf(const QString& message) {
    const QString marker = QStringLiteral("; logs in ");
    const qsizetype at = message.lastIndexOf(marker);
    return at < 0 ? QString() : message.mid(at + marker.size()).section(QStringLiteral("; "), 0, 0);
}

QColor stateColor(const QString& state) {
    if (state == QLatin1String("done"))
        return QColor(20, 120, 40);
    if (state == QLatin1String("failed"))
        return QColor(190, 30, 30);
    if (state == QLatin1String("cancelled") || state == QLatin1String("skipped"))
        return QColor(120, 120, 120);
    if (state == QLatin1String("pending"))
        return QColor(90, 90, 90);
    return QColor(20, 80, 180); // starting, running, collecting, ingesting
}

QToolButton* button(const QString& text, const QString& tip, const QString& name) {
    auto* b = new QToolButton;
    b->setText(text);
    b->setToolTip(tip);
    b->setObjectName(name);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

} // namespace

PlansPage::PlansPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), editor_(new PlanEditor), form_(new PlanForm),
      findings_(new QListWidget), mainSplitter_(new QSplitter(Qt::Vertical)), output_(new QTabWidget),
      preview_(new QPlainTextEdit), progress_(new QTreeWidget), backend_(new QComboBox), status_(new QLabel),
      lintTimer_(new QTimer(this)), runner_(new PlanRunner(this)) {
    editor_->setObjectName(QStringLiteral("planEditor"));
    findings_->setObjectName(QStringLiteral("planFindings"));
    findings_->setWordWrap(true);
    findings_->setResizeMode(QListView::Adjust);
    findings_->setAlternatingRowColors(true);
    findings_->setToolTip(tr("Lint findings; double-click one to go to its line"));
    preview_->setObjectName(QStringLiteral("dryRunPreview"));
    preview_->setReadOnly(true);
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setPlaceholderText(tr("Dry run shows here exactly what would run: one argv per line (or the "
                                    "Kubernetes manifests). Nothing is started."));
    progress_->setObjectName(QStringLiteral("runProgress"));
    progress_->setHeaderLabels({tr("Configuration / repeat / rank"), tr("State"), tr("Message")});
    progress_->header()->setStretchLastSection(true);
    progress_->setColumnWidth(WhatColumn, 240);
    output_->addTab(progress_, tr("Progress"));
    output_->addTab(preview_, tr("Dry run"));
    status_->setObjectName(QStringLiteral("planStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true); // its own line beneath the buttons: never cut, never widens the window

    auto* yamlSide = new QSplitter(Qt::Vertical);
    yamlSide->addWidget(editor_);
    yamlSide->addWidget(findings_);
    yamlSide->setStretchFactor(0, 4);
    yamlSide->setStretchFactor(1, 1);
    auto* sides = new QSplitter(Qt::Horizontal);
    sides->addWidget(form_);
    sides->addWidget(yamlSide);
    sides->setStretchFactor(0, 2);
    sides->setStretchFactor(1, 3);
    QSplitter* main = mainSplitter_;
    main->addWidget(sides);
    main->addWidget(output_);
    main->setStretchFactor(0, 3);
    main->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildToolBar());
    layout->addWidget(status_);
    layout->addWidget(main, 1);

    lintTimer_->setSingleShot(true);
    lintTimer_->setInterval(kLintDelayMs);
    connect(lintTimer_, &QTimer::timeout, this, &PlansPage::lintNow);
    connect(editor_, &QPlainTextEdit::textChanged, this, &PlansPage::scheduleLint);
    connect(findings_, &QListWidget::itemActivated, this, [this](QListWidgetItem* it) {
        editor_->goTo(it->data(Qt::UserRole).toInt(), it->data(Qt::UserRole + 1).toInt());
    });
    connect(progress_, &QTreeWidget::itemActivated, this, &PlansPage::showLogs); // double-click or Enter
    connect(form_, &PlanForm::keyEdited, this, &PlansPage::applyFormEdit);
    connect(form_, &PlanForm::addRequested, this, &PlansPage::addConfiguration);
    connect(runner_, &PlanRunner::runEvent, this, &PlansPage::onRunEvent);
    connect(runner_, &PlanRunner::dryRunOutput, this, [this](const QString& text) {
        preview_->moveCursor(QTextCursor::End);
        preview_->insertPlainText(text);
    });
    connect(runner_, &PlanRunner::summary, this, [this](int done, int failed, int skipped, int cancelled) {
        summary_ = tr("Finished: %1 done, %2 failed, %3 skipped, %4 cancelled")
                       .arg(done)
                       .arg(failed)
                       .arg(skipped)
                       .arg(cancelled);
        status_->setText(summary_);
    });
    connect(runner_, &PlanRunner::finished, this, &PlansPage::onRunFinished);
    connect(session, &WorkspaceSession::workspaceChanged, this, &PlansPage::updateActions);
    updateActions();
    status_->setText(tr("Open a plan (resources/plans has examples), or write one: docs/plans.md"));
}

QWidget* PlansPage::buildToolBar() {
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    auto* open = button(tr("Open…"), tr("Open a plan (YAML)"), QStringLiteral("openPlan"));
    save_ = button(tr("Save"), tr("Save the plan"), QStringLiteral("savePlan"));
    auto* saveAs =
        button(tr("Save As…"), tr("Save the plan under another name"), QStringLiteral("savePlanAs"));
    dryRun_ = button(tr("Dry run"), tr("Show what would run, start nothing"), QStringLiteral("dryRun"));
    run_ = button(tr("Run"), tr("Run every configuration × repeat into the open workspace"),
                  QStringLiteral("runPlan"));
    cancel_ = button(tr("Cancel"), tr("Stop the jobs this run started; finished runs are kept"),
                     QStringLiteral("cancelRun"));
    backend_->setObjectName(QStringLiteral("backend"));
    backend_->addItems({QStringLiteral("local"), QStringLiteral("podman"), QStringLiteral("docker"),
                        QStringLiteral("kubernetes")});
    backend_->setToolTip(tr("Where the runs execute"));
    connect(open, &QToolButton::clicked, this, &PlansPage::openDialog);
    connect(save_, &QToolButton::clicked, this, [this]() {
        if (path_.isEmpty())
            saveAsDialog();
        else
            savePlan();
    });
    connect(saveAs, &QToolButton::clicked, this, &PlansPage::saveAsDialog);
    connect(dryRun_, &QToolButton::clicked, this, &PlansPage::startDryRun);
    connect(run_, &QToolButton::clicked, this, &PlansPage::startRun);
    connect(cancel_, &QToolButton::clicked, this, &PlansPage::cancelRun);
    for (QWidget* w :
         {static_cast<QWidget*>(open), static_cast<QWidget*>(save_), static_cast<QWidget*>(saveAs)})
        row->addWidget(w);
    row->addSpacing(16);
    row->addWidget(new QLabel(tr("Backend:")));
    keepGoing_ = new QCheckBox(tr("Keep going"));
    keepGoing_->setObjectName(QStringLiteral("keepGoing"));
    keepGoing_->setToolTip(tr("Run every repeat of a configuration even after one failed (by default its "
                              "remaining repeats are skipped: they would fail the same way)"));
    connect(keepGoing_, &QCheckBox::toggled, runner_, &PlanRunner::setKeepGoing);
    for (QWidget* w :
         {static_cast<QWidget*>(backend_), static_cast<QWidget*>(dryRun_), static_cast<QWidget*>(run_),
          static_cast<QWidget*>(cancel_), static_cast<QWidget*>(keepGoing_)})
        row->addWidget(w);
    row->addStretch(1);
    return bar;
}

void PlansPage::refresh() {
    markReady();
}

bool PlansPage::openPlan(const QString& path, QString* error) {
    QFile f(path);
    if (f.size() > qint64(plan::kMaxPlanBytes) || !f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot read (%2)")
                         .arg(path, f.size() > qint64(plan::kMaxPlanBytes) ? tr("larger than 1 MiB")
                                                                           : f.errorString());
        status_->setText(error ? *error : tr("cannot read %1").arg(path));
        return false;
    }
    path_ = QFileInfo(path).absoluteFilePath();
    editor_->setPlainText(QString::fromUtf8(f.readAll()));
    modified_ = false;
    progress_->clear();
    progressItems_.clear();
    preview_->clear();
    lintNow();
    updateActions();
    return true;
}

bool PlansPage::savePlan(QString* error) {
    QSaveFile f(path_);
    const QByteArray bytes = editor_->toPlainText().toUtf8();
    if (path_.isEmpty() || !f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        const QString why = tr("%1: cannot save (%2)").arg(path_, f.errorString());
        if (error)
            *error = why;
        status_->setText(why);
        return false;
    }
    modified_ = false;
    updateActions();
    return true;
}

void PlansPage::openDialog() {
    const QString p = QFileDialog::getOpenFileName(this, tr("Open Plan"), QFileInfo(path_).path(),
                                                   tr("Plans (*.yaml *.yml);;All files (*)"));
    if (!p.isEmpty())
        openPlan(p);
}

void PlansPage::saveAsDialog() {
    const QString p = QFileDialog::getSaveFileName(this, tr("Save Plan"), path_, tr("Plans (*.yaml *.yml)"));
    if (p.isEmpty())
        return;
    path_ = p;
    savePlan();
}

std::string PlansPage::lintPath() const {
    return (path_.isEmpty() ? QStringLiteral("untitled.yaml") : path_).toStdString();
}

void PlansPage::scheduleLint() {
    modified_ = true;
    lintTimer_->start();
    updateActions();
}

// Lints on the thread pool; a result for text that has changed since is dropped.
void PlansPage::lintNow() {
    lintTimer_->stop();
    const quint64 generation = ++lintGeneration_;
    const std::string text = editor_->toPlainText().toStdString();
    const std::string path = lintPath();
    runInBackground<plan::ParseResult>(
        this, [text, path]() { return plan::lintPlanText(text, path); },
        [this, generation](TaskOutcome<plan::ParseResult>& o) {
            if (generation == lintGeneration_ && o.value)
                showLint(*o.value);
        });
}

void PlansPage::showLint(const plan::ParseResult& r) {
    lint_ = r;
    ++lintCount_;
    editor_->setFindings(r.findings);
    findings_->clear();
    int errors = 0;
    for (const auto& f : r.findings) {
        const bool error = f.severity == plan::Severity::Error;
        auto* it = new QListWidgetItem(
            QStringLiteral("%1  %2  %3 — %4")
                .arg(f.line > 0 ? QStringLiteral("%1:%2").arg(f.line).arg(f.column) : QStringLiteral("—"),
                     QString::fromLatin1(plan::severityName(f.severity)), QString::fromStdString(f.rule),
                     QString::fromStdString(f.message)),
            findings_);
        it->setData(Qt::UserRole, f.line);
        it->setData(Qt::UserRole + 1, f.column);
        it->setForeground(error ? QColor(170, 20, 20) : QColor(140, 90, 0));
        errors += error;
    }
    if (r.findings.empty()) {
        auto* none = new QListWidgetItem(tr("No findings: the plan follows every lint rule (docs/plans.md)"),
                                         findings_);
        none->setFlags(Qt::NoItemFlags);
    }
    if (!r.plan.configurations.empty() || r.ok())
        form_->setPlan(r.plan, r.findings);
    if (!runner_->isRunning())
        status_->setText(
            r.findings.empty()
                ? tr("Lint: clean")
                : tr("Lint: %1 error(s), %2 warning(s)").arg(errors).arg(int(r.findings.size()) - errors));
    updateActions();
    emit lintFinished();
}

// The form changed one value: rewrite it in the text (parsed afresh, so positions match the text).
void PlansPage::applyFormEdit(int configuration, const QString& key, const QString& value) {
    const std::string text = editor_->toPlainText().toStdString();
    const plan::ParseResult now = plan::parsePlanText(text, lintPath());
    if (configuration < 0 || configuration >= int(now.plan.configurations.size()))
        return;
    const auto& c = now.plan.configurations[size_t(configuration)];
    const auto edited =
        key == QLatin1String("name")
            ? plan::renameConfiguration(text, now.plan, size_t(configuration), value.toStdString())
            : plan::setConfigurationKey(text, c, key.toStdString(), value.toStdString());
    if (!edited) {
        status_->setText(
            tr("This configuration is written in flow style ({...}): edit %1 in the YAML").arg(key));
        return;
    }
    replaceText(*edited);
}

void PlansPage::addConfiguration(const QString& parent) {
    const std::string text = editor_->toPlainText().toStdString();
    const plan::ParseResult now = plan::parsePlanText(text, lintPath());
    QString name = tr("New");
    for (int n = 2; now.plan.find(name.toStdString()); ++n)
        name = tr("New %1").arg(n);
    const auto edited = plan::appendConfiguration(text, name.toStdString(), parent.toStdString());
    if (!edited) {
        status_->setText(
            tr("Add configurations in the YAML: the plan has no block-style 'configurations:' list"));
        return;
    }
    replaceText(*edited);
    form_->selectConfiguration(int(now.plan.configurations.size()));
}

// Replaces the whole text as one undoable edit, then lints at once.
void PlansPage::replaceText(const std::string& text) {
    QTextCursor c(editor_->document());
    c.beginEditBlock();
    c.select(QTextCursor::Document);
    c.insertText(QString::fromStdString(text));
    c.endEditBlock();
    lintNow();
}

void PlansPage::startDryRun() {
    launch(true);
}
void PlansPage::startRun() {
    launch(false);
}
void PlansPage::cancelRun() {
    runner_->cancel();
    status_->setText(tr("Cancelling: stopping the jobs this run started…"));
}
bool PlansPage::isRunning() const {
    return runner_->isRunning();
}

// Saves the plan (the CLI reads the file), then starts the CLI. A plan with lint errors does not run.
bool PlansPage::launch(bool dryRun) {
    if (path_.isEmpty()) {
        saveAsDialog();
        if (path_.isEmpty())
            return false;
    }
    if (modified_ && !savePlan())
        return false;
    const plan::ParseResult r = plan::lintPlanFile(path_.toStdString());
    showLint(r);
    if (plan::hasErrors(r.findings)) {
        status_->setText(tr("Fix the lint errors first (listed below the plan)"));
        return false;
    }
    QString error;
    summary_.clear();
    if (!runner_->start(path_, session()->path(), backend_->currentText(), dryRun, {}, &error)) {
        status_->setText(error);
        return false;
    }
    if (dryRun) {
        preview_->clear();
        revealOutput(preview_);
    } else {
        progress_->clear();
        progressItems_.clear();
        tracedRepeats_ = r.plan.repeats.traced;
        for (const auto& c : r.plan.configurations)
            progressItem(QString::fromStdString(c.name), 0, -1)->setText(StateColumn, tr("pending"));
        revealOutput(progress_);
    }
    status_->setText(dryRun
                         ? tr("Dry run…")
                         : tr("Running %1 on %2…").arg(QFileInfo(path_).fileName(), backend_->currentText()));
    updateActions();
    return true;
}

// Shows `tab` with at least 40% of the page's height (the plan side keeps the rest).
void PlansPage::revealOutput(QWidget* tab) {
    output_->setCurrentWidget(tab);
    const QList<int> sizes = mainSplitter_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (sizes.value(1) < total * 2 / 5)
        mainSplitter_->setSizes({total * 3 / 5, total * 2 / 5});
}

// The row of a configuration (repeat 0), of one of its repeats (rank -1) or of a rank, created on demand.
QTreeWidgetItem* PlansPage::progressItem(const QString& config, int repeat, int rank) {
    const QString key = QStringLiteral("%1/%2/%3").arg(config).arg(repeat).arg(rank);
    if (auto* it = progressItems_.value(key))
        return it;
    QTreeWidgetItem* item = nullptr;
    if (repeat == 0) {
        item = new QTreeWidgetItem(progress_, {config});
    } else if (rank < 0) {
        // Repeats after the traced ones run without the collector (its overhead baseline): said so, as
        // their runs are no traces.
        item = new QTreeWidgetItem(
            progressItem(config, 0, -1),
            {repeat > tracedRepeats_ ? tr("repeat %1 (untraced)").arg(repeat) : tr("repeat %1").arg(repeat)});
    } else {
        item = new QTreeWidgetItem(progressItem(config, repeat, -1), {tr("rank %1").arg(rank)});
    }
    if (item->parent())
        item->parent()->setExpanded(true);
    progressItems_.insert(key, item);
    return item;
}

void PlansPage::onRunEvent(const PlanRunEvent& e) {
    auto show = [](QTreeWidgetItem* it, const QString& state) {
        it->setText(StateColumn, state);
        it->setForeground(StateColumn, stateColor(state.section(' ', -1)));
    };
    const bool perRank = e.repeat > 0 && e.rank >= 0;
    QTreeWidgetItem* it = progressItem(e.config, std::max(e.repeat, 0), perRank ? e.rank : -1);
    show(it, e.state);
    it->setText(NoteColumn, e.message);
    it->setToolTip(NoteColumn, e.message);
    if (!perRank && e.repeat > 0)
        noteLogFolder(it, e);
    if (e.repeat <= 0)
        return;
    // A repeat's own state wins; before it reports one, its first rank's state stands for it. The
    // configuration's row shows its latest repeat.
    QTreeWidgetItem* repeat = progressItem(e.config, e.repeat, -1);
    if (perRank && repeat->text(StateColumn).isEmpty())
        show(repeat, e.state);
    QTreeWidgetItem* config = progressItem(e.config, 0, -1);
    show(config, tr("repeat %1: %2").arg(e.repeat).arg(repeat->text(StateColumn)));
    if (!perRank && e.state == QLatin1String("failed")) // the cause shows without unfolding the repeats
        config->setText(NoteColumn, e.message);
    if (!perRank && e.state == QLatin1String("done") && session()->isOpen())
        session()->reload(); // a run landed: the dock and the ablation page refresh
}

// A repeat's output folder: what its "running" state names, or the folder a failure names. A failed row
// says where its cause is: the tooltip offers the logs (double-click or Enter, showLogs).
void PlansPage::noteLogFolder(QTreeWidgetItem* it, const PlanRunEvent& e) {
    if (e.state == QLatin1String("running") && !e.message.isEmpty())
        it->setData(WhatColumn, kLogFolderRole, e.message);
    else if (const QString folder = logFolderOf(e.message); !folder.isEmpty())
        it->setData(WhatColumn, kLogFolderRole, folder);
    if (e.state == QLatin1String("failed") && !it->data(WhatColumn, kLogFolderRole).toString().isEmpty()) {
        const QString tip = e.message + tr("\n\nDouble-click (or Enter) shows the job's logs.");
        for (int c : {WhatColumn, StateColumn, NoteColumn})
            it->setToolTip(c, tip);
    }
}

// The logs of the repeat a row belongs to (a rank's row: its repeat's).
void PlansPage::showLogs(QTreeWidgetItem* it) {
    while (it && it->data(WhatColumn, kLogFolderRole).toString().isEmpty())
        it = it->parent() && it->parent()->parent() ? it->parent() : nullptr; // a rank row: its repeat
    if (!it)
        return;
    const QString title =
        it->parent() ? QStringLiteral("%1 %2").arg(it->parent()->text(WhatColumn), it->text(WhatColumn))
                     : it->text(WhatColumn);
    auto* d = new LogViewerDialog(title, it->data(WhatColumn, kLogFolderRole).toString(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
}

void PlansPage::onRunFinished(int exitCode, const QString& stderrText) {
    const bool dry = runner_->isDryRun();
    if (exitCode != 0 && !summary_.isEmpty()) {
        status_->setText(tr("%1 (exit %2)").arg(summary_).arg(exitCode));
    } else if (exitCode != 0) {
        const QString tail = stderrText.trimmed().split('\n').last();
        status_->setText((dry ? tr("Dry run failed (exit %1)") : tr("Run ended with exit %1")).arg(exitCode) +
                         (tail.isEmpty() ? QString() : QStringLiteral(": ") + tail));
    } else if (dry) {
        status_->setText(tr("Dry run: nothing was started"));
    }
    if (!dry && session()->isOpen())
        session()->reload();
    updateActions();
    emit runFinished(exitCode);
}

void PlansPage::updateActions() {
    const bool running = runner_->isRunning();
    const bool haveWorkspace = session()->isOpen();
    const bool clean = !plan::hasErrors(lint_.findings) && !lint_.plan.configurations.empty();
    dryRun_->setEnabled(!running && clean && haveWorkspace);
    run_->setEnabled(!running && clean && haveWorkspace);
    run_->setToolTip(haveWorkspace ? tr("Run every configuration × repeat into the open workspace")
                                   : tr("Open or create a workspace first (File → New / Open)"));
    cancel_->setEnabled(running && !runner_->isDryRun());
    save_->setEnabled(modified_);
    backend_->setEnabled(!running);
}

} // namespace cnp::wb
