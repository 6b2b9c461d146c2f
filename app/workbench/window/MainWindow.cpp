#include "MainWindow.h"

#include "AblationPage.h"
#include "BackgroundTask.h"
#include "ComparePage.h"
#include "ExportDialog.h"
#include "IngestController.h"
#include "IngestRequestDialog.h"
#include "InsightsPage.h"
#include "KernelsPage.h"
#include "KeyboardShortcutsDialog.h"
#include "PlansPage.h"
#include "RanksPage.h"
#include "ReportExportDialog.h"
#include "RunPage.h"
#include "SyntheticBadge.h"
#include "TimelineHostPage.h"
#include "TrendPage.h"
#include "WorkbenchApplication.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "WorkspaceWriter.h"

#include "export/ChromeTraceExporter.h"
#include "export/CsvExporter.h"
#include "history/HistoryManifest.h"
#include "metrics/MultiRankSteps.h"
#include "report/ReportModel.h"
#include "report/ReportWriter.h"
#include "requests/WorkspaceCategories.h"
#include "store/WorkspaceProbe.h"
#include "store/WorkspaceTransactions.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>

#include <utility>

namespace cnp::wb {

namespace {
constexpr int kMaxRecent = 8;
constexpr int kErrorMessageMs = 15000; // how long a failure stays in the status bar
constexpr int kDockWidth = 280;        // the demo's configuration names fit whole (tst_pagelayout)
constexpr double kDockShare = 0.25;    // the widest the dock grows to fit a workspace's names
const char* kRecentKey = "workspace/recent";
const char* kGeometryKey = "window/geometry";
const char* kStateKey = "window/state";
const char* kLastPageKey = "window/lastPage";
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new WorkspaceSession(this)), dock_(new WorkspaceDock(session_, this)),
      ingest_(new IngestController(this)), stack_(new QStackedWidget) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("CNP Workbench"));
    setAcceptDrops(true);
    setCentralWidget(stack_);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);
    resizeDocks({dock_}, {kDockWidth}, Qt::Horizontal);
    createPages();
    createActions();
    statusRuns_ = new QLabel;
    progressLabel_ = new QLabel;
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("ingestProgress"));
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    cancelIngest_ = new QToolButton;
    cancelIngest_->setObjectName(QStringLiteral("cancelIngest"));
    cancelIngest_->setText(tr("Cancel"));
    cancelIngest_->setToolTip(tr("Cancel the ingest (the workspace stays unchanged) — Esc"));
    cancelIngest_->setShortcut(QKeySequence(Qt::Key_Escape));
    statusBar()->addPermanentWidget(progressLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelIngest_);
    statusBar()->addPermanentWidget(statusRuns_);
    syntheticBadge_ = new SyntheticBadge;
    statusBar()->insertPermanentWidget(0, syntheticBadge_);
    auto updateBadge = [this]() { syntheticBadge_->update(session_->runs(), dock_->selectedRun()); };
    connect(session_, &WorkspaceSession::runsChanged, this, updateBadge);
    connect(dock_, &WorkspaceDock::selectedRunChanged, this, updateBadge);
    for (QWidget* wdg : {static_cast<QWidget*>(progressLabel_), static_cast<QWidget*>(progress_),
                         static_cast<QWidget*>(cancelIngest_)})
        wdg->setVisible(false);
    connect(cancelIngest_, &QToolButton::clicked, ingest_, &IngestController::cancel);
    connectErrorReports();
    connect(session_, &WorkspaceSession::runsChanged, this, [this]() {
        updateTitle();
        updateRunActions();
    });
    // The dock reloads its tree on runsChanged (connected first): fit it to the names once per opened
    // workspace, not on the live re-reads that follow.
    connect(session_, &WorkspaceSession::workspaceChanged, this, [this]() { fitDockPending_ = true; });
    // Every edit runs on the writer's worker: the status bar says which, the edit actions wait for it.
    connect(session_->writer(), &WorkspaceWriter::busyChanged, this, [this](bool busy, const QString& what) {
        if (busy)
            statusBar()->showMessage(what + QStringLiteral("…"));
        else
            statusBar()->clearMessage();
        updateRunActions();
    });
    connect(session_, &WorkspaceSession::runsChanged, this, [this]() {
        if (std::exchange(fitDockPending_, false))
            fitDockToNames();
    });
    connect(dock_, &WorkspaceDock::selectedRunChanged, this, [this](RunId run) {
        updateRunActions();
        for (WorkbenchPage* p : pages_)
            p->setSelectedRun(run);
    });
    connect(dock_, &WorkspaceDock::runActivated, this, [this](RunId) { showPage(PageId::Run); });

    connect(ingest_, &IngestController::progressChanged, this,
            [this](double f) { progress_->setValue(int(f * 1000)); });
    auto endProgress = [this]() {
        progressLabel_->setVisible(false);
        progress_->setVisible(false);
        cancelIngest_->setVisible(false);
        importAction_->setEnabled(true);
        updateRunActions();
    };
    connect(ingest_, &IngestController::finished, this,
            [this, endProgress](RunId run, const QString& summary) {
                endProgress();
                session_->reload();
                dock_->selectRun(run);
                statusBar()->showMessage(tr("Ingested %1").arg(summary), 10000);
                emit ingestFinished(run);
            });
    connect(ingest_, &IngestController::failed, this, [this, endProgress](const QString& message) {
        endProgress();
        showError(tr("Ingest failed"), message + tr("\n\nThe workspace is unchanged."));
    });
    connect(ingest_, &IngestController::cancelled, this, [this, endProgress]() {
        endProgress();
        statusBar()->showMessage(tr("Ingest cancelled; the workspace is unchanged."), 10000);
    });
    updateTitle();
    updateRunActions();
}

MainWindow::~MainWindow() = default;

// What failed without ending anything reaches the status bar: a page's failed read, the session's failed
// re-read of the catalogue, and an exception the application caught at its event loop (issue 32.2).
void MainWindow::connectErrorReports() {
    auto show = [this](const QString& text) { statusBar()->showMessage(text, kErrorMessageMs); };
    for (WorkbenchPage* p : pages_)
        connect(p, &WorkbenchPage::statusMessage, this, show);
    connect(session_, &WorkspaceSession::catalogueReadFailed, this, show);
    if (WorkbenchApplication* app = WorkbenchApplication::instance())
        connect(app, &WorkbenchApplication::exceptionCaught, this,
                [show](const QString& what) { show(tr("Error: %1").arg(what)); });
}

void MainWindow::createPages() {
    pages_[size_t(PageId::Ablation)] = new AblationPage(session_);
    pages_[size_t(PageId::Compare)] = new ComparePage(session_);
    pages_[size_t(PageId::Kernels)] = new KernelsPage(session_);
    pages_[size_t(PageId::Insights)] = new InsightsPage(session_);
    pages_[size_t(PageId::Timeline)] = new TimelineHostPage(session_);
    pages_[size_t(PageId::Run)] = new RunPage(session_);
    pages_[size_t(PageId::Ranks)] = new RanksPage(session_);
    pages_[size_t(PageId::Plans)] = new PlansPage(session_);
    pages_[size_t(PageId::Trend)] = new TrendPage(session_);
    for (PageId id : allPages()) {
        WorkbenchPage* p = pages_[size_t(id)];
        p->setObjectName(pageKey(id) + QStringLiteral("Page"));
        stack_->addWidget(p);
        connect(p, &WorkbenchPage::navigateRequested, this, [this](int pageId, RunId run) {
            if (run != RunId())
                dock_->selectRun(run);
            showPage(PageId(pageId));
        });
        connect(p, &WorkbenchPage::timelineJumpRequested, this,
                [this](RunId run, RankId rank, qint64 s, qint64 e) {
                    dock_->selectRun(run);
                    showPage(PageId::Timeline);
                    static_cast<TimelineHostPage*>(page(PageId::Timeline))->jumpTo(run, rank, s, e);
                });
        connect(p, &WorkbenchPage::timelineCallJumpRequested, this,
                [this](RunId run, RankId rank, const QList<qint32>& ranks, qint64 s, qint64 e) {
                    dock_->selectRun(run);
                    showPage(PageId::Timeline);
                    static_cast<TimelineHostPage*>(page(PageId::Timeline))
                        ->jumpTo(run, rank, s, e, std::vector<std::int32_t>(ranks.begin(), ranks.end()));
                });
        connect(p, &WorkbenchPage::compareRequested, this, [this](RunId a, RunId b) {
            showPage(PageId::Compare);
            static_cast<ComparePage*>(page(PageId::Compare))->compare(a, b);
        });
        connect(p, &WorkbenchPage::timelineCompareRequested, this,
                [this](RunId a, RunId b, const QString& name) {
                    dock_->selectRun(a);
                    showPage(PageId::Timeline);
                    static_cast<TimelineHostPage*>(page(PageId::Timeline))->showComparison(a, b, name);
                });
    }
    stack_->setCurrentIndex(int(current_));
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setToolTipsVisible(true); // a disabled edit says why (read-only workspace)
    file->addAction(tr("&New Workspace…"), QKeySequence::New, this, &MainWindow::newWorkspace);
    file->addAction(tr("&Open Workspace…"), QKeySequence::Open, this, &MainWindow::openWorkspaceDialog);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open &History…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H), this,
                    &MainWindow::openHistoryDialog)
        ->setObjectName(QStringLiteral("openHistoryAction"));
    file->addSeparator();
    importAction_ = file->addAction(tr("&Import Traces…"), QKeySequence(Qt::CTRL | Qt::Key_I), this,
                                    &MainWindow::importDialog);
    importFolderAction_ =
        file->addAction(tr("Import Trace &Folder…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), this,
                        &MainWindow::importFolderDialog);
    file->addSeparator();
    // The whole study as HTML, PDF, CSV or JSON (ReportExportDialog; the core writes it).
    file->addAction(tr("Export &Report…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this]() {
        if (!session_->isOpen() || session_->runs().empty()) {
            showError(tr("Export report"), tr("The report needs a workspace with runs."));
            return;
        }
        ReportExportDialog dialog(session_->path(),
                                  configurationsWithRuns(session_->planOrder(), session_->runs()), this);
        dialog.exec();
    });
    file->addAction(tr("Export Run &Trace…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportTraceDialog);
    file->addAction(tr("&Close Workspace"), QKeySequence(Qt::CTRL | Qt::Key_W), session_,
                    &WorkspaceSession::close);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    updateRecentMenu();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto* bar = new QToolBar(tr("Pages"));
    bar->setObjectName(QStringLiteral("pageBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->setMovable(false);
    addToolBar(Qt::LeftToolBarArea, bar);
    pageGroup_ = new QActionGroup(this);
    for (PageId id : allPages()) {
        auto* a = new QAction(pageTitle(id), this);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + int(id))));
        a->setToolTip(
            QStringLiteral("%1 (%2)").arg(pageTitle(id), a->shortcut().toString(QKeySequence::NativeText)));
        a->setObjectName(pageKey(id) + QStringLiteral("Action"));
        pageGroup_->addAction(a);
        view->addAction(a);
        bar->addAction(a);
        connect(a, &QAction::triggered, this, [this, id]() { showPage(id); });
        pageActions_[size_t(id)] = a;
    }
    pageActions_[size_t(current_)]->setChecked(true);
    createViewMenu(view);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->setToolTipsVisible(true);
    renameAction_ = run->addAction(tr("&Rename…"), QKeySequence(Qt::Key_F2), this, &MainWindow::renameRun);
    relabelAction_ = run->addAction(tr("Change &Configuration…"), QKeySequence(Qt::CTRL | Qt::Key_L), this,
                                    &MainWindow::relabelRun);
    removeAction_ = run->addAction(tr("Re&move"), QKeySequence::Delete, this, &MainWindow::removeRun);
    for (QAction* a : {renameAction_, relabelAction_, removeAction_})
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    dock_->addAction(renameAction_);
    dock_->addAction(relabelAction_);
    dock_->addAction(removeAction_);
    dock_->setRunActions({renameAction_, relabelAction_, removeAction_});

    createHelpMenu();
}

void MainWindow::createViewMenu(QMenu* view) {
    view->addSeparator();
    QAction* dockToggle = dock_->toggleViewAction();
    dockToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addAction(dockToggle);
    reloadAction_ = view->addAction(tr("&Reload Workspace"), QKeySequence(Qt::Key_F5), session_,
                                    &WorkspaceSession::reload);
    reloadAction_->setObjectName(QStringLiteral("reloadAction"));
    // Ctrl+F: the current page's search field (Kernels, Compare, Timeline), so typed letters go there.
    QAction* find = view->addAction(tr("&Find"), QKeySequence::Find, this, [this]() {
        if (!page(currentPage())->focusSearch())
            statusBar()->showMessage(tr("This page has no search field."), 5000);
    });
    find->setObjectName(QStringLiteral("findAction"));
    reloadAction_->setToolTip(tr("Re-read the runs of the workspace (F5); changes by other programs appear "
                                 "by themselves"));
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(this);
    const QString titles[] = {tr("&System"), tr("&Light"), tr("&Dark")};
    for (ThemeMode m : {ThemeMode::System, ThemeMode::Light, ThemeMode::Dark}) {
        QAction* a = theme->addAction(titles[int(m)]);
        a->setObjectName(themeKey(m) + QStringLiteral("ThemeAction"));
        a->setCheckable(true);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, m]() { setTheme(m); });
        themeActions_[size_t(m)] = a;
    }
    themeActions_[size_t(currentTheme())]->setChecked(true);
}

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts…"), QKeySequence(Qt::Key_F1), this, [this]() {
        KeyboardShortcutsDialog dialog(menuBar(), this);
        dialog.exec();
    });
    help->addAction(tr("&About CNP Workbench"), this, [this]() {
        QMessageBox::about(
            this, tr("About CNP Workbench"),
            tr("<b>CNP Workbench %1</b><br>Analyses GPU training-job traces (PyTorch profiler / Kineto, "
               "Nsight Systems SQLite, CNP .cnpt).<br>Drop trace files or folders on the window to "
               "ingest them.<br><br>Qt %2")
                .arg(QApplication::applicationVersion().toHtmlEscaped(), QString::fromLatin1(qVersion())));
    });
}

void MainWindow::setTheme(ThemeMode mode) {
    applyTheme(mode);
    if (persist_)
        saveTheme(mode);
    themeActions_[size_t(mode)]->setChecked(true);
}

bool MainWindow::openPlan(const QString& path, QString* error) {
    showPage(PageId::Plans);
    return static_cast<PlansPage*>(page(PageId::Plans))->openPlan(path, error);
}

void MainWindow::showPage(PageId id) {
    current_ = id;
    stack_->setCurrentIndex(int(id));
    pageActions_[size_t(id)]->setChecked(true);
    emit currentPageChanged(int(id));
}

bool MainWindow::openWorkspace(const QString& path, bool create) {
    QString error;
    if (!session_->open(path, create, &error)) {
        showError(tr("Cannot open workspace"), error);
        return false;
    }
    addRecent(QFileInfo(path).absoluteFilePath());
    updateTitle();
    return true;
}

void MainWindow::fitDockToNames() {
    // Issue 15.2: the study's names read "AC2+ACC…ilerOpt" even at 1920 px in a 280 px dock. Opening a
    // workspace widens the dock (never narrows it) to show its names whole, up to kDockShare of the
    // window; window resizes and live re-reads leave the width alone.
    const int want = std::min(dock_->preferredWidth(), int(width() * kDockShare));
    if (!dock_->isHidden() && want > dock_->width())
        resizeDocks({dock_}, {want}, Qt::Horizontal);
}

void MainWindow::updateTitle() {
    if (!session_->isOpen()) {
        setWindowTitle(tr("CNP Workbench"));
        statusRuns_->setText(tr("No workspace — File → New or Open (Ctrl+N / Ctrl+O)"));
        return;
    }
    setWindowTitle(tr("%1 — CNP Workbench").arg(QFileInfo(session_->path()).fileName()));
    statusRuns_->setText(tr("%1 · %2 run(s) in %3 configuration(s)")
                             .arg(session_->path())
                             .arg(session_->runs().size())
                             .arg(session_->configurations().size()));
}

QStringList MainWindow::recentWorkspaces() const {
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecent(const QString& path) {
    if (!persist_)
        return;
    QStringList recent = recentWorkspaces();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = recentWorkspaces();
    for (const QString& p : recent)
        recentMenu_->addAction(p, this, [this, p]() { openWorkspace(p); });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreSettings() {
    QSettings s;
    restoreGeometry(s.value(kGeometryKey).toByteArray());
    restoreState(s.value(kStateKey).toByteArray());
    if (auto id = pageFromKey(s.value(kLastPageKey).toString()))
        showPage(*id);
}

void MainWindow::saveSettings() const {
    if (!persist_)
        return;
    QSettings s;
    s.setValue(kGeometryKey, saveGeometry());
    s.setValue(kStateKey, saveState());
    s.setValue(kLastPageKey, pageKey(current_));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (ingest_->isRunning())
        ingest_->cancel();
    saveSettings();
    e->accept();
}

void MainWindow::showError(const QString& title, const QString& message) {
    lastError_ = message;
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::newWorkspace() {
    QString path =
        QFileDialog::getSaveFileName(this, tr("New Workspace"), QString(), tr("CNP workspaces (*.cnpdb)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".cnpdb")))
        path += QStringLiteral(".cnpdb");
    if (QFileInfo::exists(path)) {
        showError(tr("Cannot create workspace"),
                  tr("%1: already exists; open it with File → Open").arg(path));
        return;
    }
    openWorkspace(path, true);
}

void MainWindow::openHistory(const QString& path) {
    static_cast<TrendPage*>(page(PageId::Trend))->openHistory(path);
    showPage(PageId::Trend);
}

void MainWindow::openHistoryDialog() {
    const QString path = QFileDialog::getExistingDirectory(
        this, tr("Open History (a folder with %1)").arg(QLatin1String(HistoryManifest::kFileName)));
    if (path.isEmpty())
        return;
    if (!HistoryManifest::isHistory(path.toStdString())) {
        showError(tr("Open history"),
                  tr("%1: no %2 in this folder (a history is the folder `cnp history add` "
                     "writes)")
                      .arg(path, QLatin1String(HistoryManifest::kFileName)));
        return;
    }
    openHistory(path);
}

void MainWindow::openWorkspaceDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Workspace"), QString(),
        tr("CNP workspaces and studies (*.cnpdb cnp-study.json);;All files (*)"));
    if (!path.isEmpty())
        openWorkspace(path);
}

QString MainWindow::importFilter() {
    return tr("Traces (*.json *.json.gz *.pt.trace.json *.sqlite *.cnpt *.cnpt.gz);;All files (*)");
}

void MainWindow::importDialog() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Import Traces"), QString(), importFilter());
    if (!paths.isEmpty())
        ingestPaths(paths);
}

void MainWindow::importFolderDialog() {
    // A folder of traces (one run, e.g. one file per rank), as `cnp ingest WS FOLDER` takes it.
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Import Trace Folder"));
    if (!folder.isEmpty())
        ingestPaths({folder});
}

void MainWindow::exportTraceDialog() {
    if (!session_->isOpen() || session_->runs().empty()) {
        showError(tr("Export run trace"), tr("Open a workspace with runs first."));
        return;
    }
    const RunRecord* selected = session_->findRun(dock_->selectedRun());
    const RunRecord& current = selected ? *selected : session_->runs().front();
    ExportDialog dialog(session_->runs(), current.id, this);
    dialog.setPath(QFileInfo(session_->path())
                       .absoluteDir()
                       .filePath(QString::fromStdString(current.info.name) + QStringLiteral(".json.gz")));
    if (dialog.exec() == QDialog::Accepted)
        exportTrace(dialog.run(), dialog.path(), dialog.format() == ExportDialog::Format::Csv);
}

bool MainWindow::exportReport(const QString& path, bool pdf) {
    if (!session_->isOpen() || path.isEmpty())
        return false;
    const std::string ws = session_->path().toStdString(), out = path.toStdString();
    runExport(
        tr("Writing the report…"),
        [ws, out, pdf]() {
            const Workspace w(ws, Workspace::Mode::ReadOnly);
            const auto model = [&] {
                const ReadTransaction snapshot = readSnapshot(w);
                return report::buildReportModel(w, ReportOptions{});
            }();
            writeReport(model, pdf ? ReportFormat::Pdf : ReportFormat::Html, PaperSize::A4, out);
        },
        tr("Report written: %1").arg(path));
    return true;
}

bool MainWindow::exportTrace(RunId run, const QString& path, bool csv) {
    const RunRecord* rec = session_->findRun(run);
    if (!rec || path.isEmpty())
        return false;
    const std::string ws = session_->path().toStdString(), out = path.toStdString();
    const QString name = QString::fromStdString(rec->info.name);
    runExport(
        tr("Exporting %1…").arg(name),
        [ws, out, id = run, csv]() {
            const Workspace w(ws, Workspace::Mode::ReadOnly);
            const TraceData trace = w.loadRun(id);
            if (!csv) {
                ChromeTraceExporter(trace).write(out);
                return;
            }
            std::unique_ptr<RunSummaryReader> summaries;
            try {
                summaries = std::make_unique<RunSummaryReader>(summaryReaderOf(w, id));
            } catch (const InputError&) {
                summaries.reset(); // a run without stored summaries: its event tables only
            }
            CsvExporter(trace, summaries.get()).write(out);
        },
        tr("Exported %1 to %2").arg(name, path));
    return true;
}

void MainWindow::runExport(const QString& what, std::function<void()> work, const QString& doneMessage) {
    // The exporters report no fraction, so the dialog shows activity; it is modal so the workspace
    // is not changed under the export.
    auto* progress = new QProgressDialog(what, QString(), 0, 0, this);
    progress->setObjectName(QStringLiteral("exportProgress"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->show();
    statusBar()->showMessage(what);
    runInBackground<bool>(
        this,
        [work = std::move(work)]() {
            work();
            return true;
        },
        [this, progress, doneMessage](TaskOutcome<bool>& o) {
            progress->deleteLater();
            statusBar()->clearMessage();
            if (o.value)
                statusBar()->showMessage(doneMessage, 10000);
            else
                showError(tr("Export failed"), o.error);
            emit exportFinished(bool(o.value));
        });
}

void MainWindow::ingestPaths(const QStringList& paths) {
    if (paths.isEmpty())
        return;
    if (!session_->isOpen()) {
        showError(tr("No workspace"),
                  tr("Open or create a workspace first (File → New / Open), then drop the traces again."));
        return;
    }
    if (ingest_->isRunning()) {
        showError(tr("Ingest busy"), tr("Another ingest is running; wait for it or cancel it first."));
        return;
    }
    std::optional<IngestRequest> request;
    if (provider_) {
        request = provider_(paths);
    } else {
        QStringList runs;
        for (const auto& r : session_->runs())
            runs << QString::fromStdString(r.info.name);
        IngestRequestDialog dialog(paths, session_->configurations(), runs, this);
        if (dialog.exec() == QDialog::Accepted)
            request = dialog.request();
    }
    if (request)
        startIngest(*request);
}

bool MainWindow::startIngest(const IngestRequest& request) {
    if (!session_->isOpen() || !ingest_->start(session_->path(), request))
        return false;
    importAction_->setEnabled(false);
    updateRunActions();
    progressLabel_->setText(tr("Ingesting %1…").arg(QString::fromStdString(request.runName)));
    progress_->setValue(0);
    progressLabel_->setVisible(true);
    progress_->setVisible(true);
    cancelIngest_->setVisible(true);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList paths;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile())
            paths << u.toLocalFile();
    if (paths.isEmpty())
        return;
    e->acceptProposedAction();
    // A dropped workspace (whatever its name: store/WorkspaceProbe.h) opens, a dropped history folder opens
    // on the Trend page; anything else is ingested.
    if (paths.size() == 1 && HistoryManifest::isHistory(paths.front().toStdString())) {
        openHistory(paths.front());
        return;
    }
    if (paths.size() == 1 && isWorkspaceFile(paths.front().toStdString())) {
        openWorkspace(paths.front());
        return;
    }
    ingestPaths(paths);
}

void MainWindow::updateRunActions() {
    const bool haveRun = session_->isOpen() && dock_->selectedRun() != RunId();
    const bool idle = !ingest_->isRunning() && !session_->writer()->isBusy();
    const bool writable = session_->canWrite();
    renameAction_->setEnabled(haveRun && idle && writable);
    relabelAction_->setEnabled(haveRun && idle && writable);
    removeAction_->setEnabled(haveRun && idle && writable);
    importAction_->setEnabled(writable && idle);
    importFolderAction_->setEnabled(writable && idle);
    // A disabled action says why where the workspace is read-only (its menu shows tooltips).
    const QString why = session_->readOnlyReason();
    for (QAction* a : {renameAction_, relabelAction_, removeAction_, importAction_, importFolderAction_})
        a->setToolTip(why); // empty: Qt's default, the action's text
}

void MainWindow::editWorkspace(const QString& what, std::function<void(Workspace&)> edit) {
    session_->writer()->submit(what, std::move(edit), [this, what](const QString& error) {
        if (!error.isEmpty())
            showError(what, error);
    });
}

// The run edits copy the selected run's id and name before their dialog: its nested event loop may
// re-read the run list (a live reload), which invalidates RunRecord pointers into it.
void MainWindow::renameRun() {
    const RunRecord* r = session_->findRun(dock_->selectedRun());
    if (!r)
        return;
    const RunId id = r->id;
    const QString run = QString::fromStdString(r->info.name);
    bool ok = false;
    const QString to = QInputDialog::getText(this, tr("Rename run"), tr("New name for %1:").arg(run),
                                             QLineEdit::Normal, run, &ok)
                           .trimmed();
    if (!ok || to.isEmpty() || to == run)
        return;
    editWorkspace(tr("Renaming %1").arg(run),
                  [id, to = to.toStdString()](Workspace& ws) { ws.renameRun(id, to); });
}

void MainWindow::relabelRun() {
    const RunRecord* r = session_->findRun(dock_->selectedRun());
    if (!r)
        return;
    const RunId id = r->id;
    const QString run = QString::fromStdString(r->info.name);
    const QString current = QString::fromStdString(r->info.config);
    bool ok = false;
    const QString to = QInputDialog::getItem(this, tr("Change configuration"),
                                             tr("Configuration of %1:").arg(run), session_->configurations(),
                                             int(session_->configurations().indexOf(current)), true, &ok)
                           .trimmed();
    if (!ok || to.isEmpty() || to == current)
        return;
    editWorkspace(tr("Relabelling %1").arg(run),
                  [id, to = to.toStdString()](Workspace& ws) { ws.relabelRun(id, to); });
}

void MainWindow::removeRun() {
    const RunRecord* r = session_->findRun(dock_->selectedRun());
    if (!r)
        return;
    const RunId id = r->id;
    const QString run = QString::fromStdString(r->info.name);
    if (QMessageBox::question(this, tr("Remove run"),
                              tr("Remove run %1 and all its events from the workspace?").arg(run)) !=
        QMessageBox::Yes)
        return;
    editWorkspace(tr("Removing %1").arg(run), [id](Workspace& ws) { ws.removeRun(id); });
}

} // namespace cnp::wb
