#pragma once
// The workbench window: a left page bar (Ctrl+1..9) over a stack of pages, the workspace dock, File /
// View / Run / Help menus (import files or a folder, export a report or a run's trace with progress,
// reload F5, theme, keyboard shortcuts), drag-and-drop ingest with a progress dialog and Cancel,
// readable error dialogs,
// (status-bar progress and Cancel, created up front so showing them never stalls the GUI thread),
// and QSettings for recent workspaces, geometry, dock layout and the last page.
#include "PageId.h"
#include "ThemeMode.h"
#include "ingest/IngestPipeline.h"

#include <QMainWindow>

#include <array>
#include <functional>
#include <optional>

class QAction;
class QActionGroup;
class QMenu;
class QStackedWidget;
class QProgressBar;
class QToolButton;
class QLabel;

namespace cnp::wb {

class WorkspaceSession;
class WorkspaceDock;
class WorkbenchPage;
class IngestController;
class SyntheticBadge;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Decides the run name/configuration for dropped paths; nullopt = the user cancelled.
    using IngestRequestProvider = std::function<std::optional<IngestRequest>(const QStringList& paths)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    WorkspaceSession* session() const { return session_; }
    WorkspaceDock* workspaceDock() const { return dock_; }
    IngestController* ingestController() const { return ingest_; }
    WorkbenchPage* page(PageId id) const { return pages_[size_t(id)]; }
    PageId currentPage() const { return current_; }
    QAction* pageAction(PageId id) const { return pageActions_[size_t(id)]; }

    // Opens a workspace (create: make it if missing). Shows an error dialog and returns false on failure.
    bool openWorkspace(const QString& path, bool create = false);
    void showPage(PageId id);
    // Shows the Trend page on the release history at `path` (a folder `cnp history add` writes, or its
    // cnp-history.json); it is read in the background and errors show on the page.
    void openHistory(const QString& path);
    // Shows the Plans page with the plan file `path` open (`cnp-workbench --plan FILE`); false and *error
    // ("FILE: cannot read (why)") when it cannot be read.
    bool openPlan(const QString& path, QString* error = nullptr);
    // Asks the provider (default: IngestRequestDialog) and starts the ingest; errors become dialogs.
    void ingestPaths(const QStringList& paths);
    bool startIngest(const IngestRequest& request);
    void setIngestRequestProvider(IngestRequestProvider provider) { provider_ = std::move(provider); }
    // The text of the last error dialog shown (tests); empty when none.
    QString lastErrorMessage() const { return lastError_; }
    QStringList recentWorkspaces() const;
    // Restores geometry, dock layout and last page; saveSettings() writes them (also on close).
    void restoreSettings();
    void saveSettings() const;
    // When false, nothing is written to QSettings (the --screenshot mode).
    void setPersistSettings(bool on) { persist_ = on; }
    // View → Theme: applies and (when persisting) saves the choice; the menu follows.
    void setTheme(ThemeMode mode);
    QAction* themeAction(ThemeMode mode) const { return themeActions_[size_t(mode)]; }
    QAction* reloadAction() const { return reloadAction_; }
    // The Import dialog's name filter (every format `cnp ingest` reads, .cnpt.gz included).
    static QString importFilter();
    // Exports on a worker thread with a progress dialog; errors become dialogs. False when not started.
    bool exportReport(const QString& path, bool pdf);
    bool exportTrace(RunId run, const QString& path, bool csv);

signals:
    void currentPageChanged(int pageId);
    void ingestFinished(cnp::RunId runId);
    void exportFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void createActions();
    void createPages();
    void connectErrorReports();
    void updateTitle();
    void fitDockToNames();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void updateRunActions();
    void showError(const QString& title, const QString& message);
    void newWorkspace();
    void openWorkspaceDialog();
    void openHistoryDialog();
    void importDialog();
    void importFolderDialog();
    void exportTraceDialog();
    void createViewMenu(QMenu* view);
    void createHelpMenu();
    // Runs `work` on a worker thread behind a window-modal progress dialog saying `what`; then shows
    // `doneMessage` in the status bar, or the error in a dialog, and emits exportFinished().
    void runExport(const QString& what, std::function<void()> work, const QString& doneMessage);
    void renameRun();
    void relabelRun();
    void removeRun();
    // Runs a workspace edit on a worker thread (its own connection), then reloads the run list.
    void editWorkspace(const QString& what, std::function<void(class cnp::Workspace&)> edit);

    WorkspaceSession* session_;
    WorkspaceDock* dock_;
    IngestController* ingest_;
    QStackedWidget* stack_;
    std::array<WorkbenchPage*, kPageCount> pages_{};
    std::array<QAction*, kPageCount> pageActions_{};
    QActionGroup* pageGroup_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* renameAction_ = nullptr;
    QAction* relabelAction_ = nullptr;
    QAction* removeAction_ = nullptr;
    QAction* importAction_ = nullptr;
    QAction* importFolderAction_ = nullptr;
    QAction* reloadAction_ = nullptr;
    std::array<QAction*, 3> themeActions_{};
    QProgressBar* progress_ = nullptr; // status-bar ingest progress, created once (no GUI stall)
    QToolButton* cancelIngest_ = nullptr;
    QLabel* progressLabel_ = nullptr;
    QLabel* statusRuns_ = nullptr;
    SyntheticBadge* syntheticBadge_ = nullptr;
    PageId current_ = PageId::Ablation;
    IngestRequestProvider provider_;
    QString lastError_;
    bool persist_ = true;
    bool fitDockPending_ = false;
};

} // namespace cnp::wb
