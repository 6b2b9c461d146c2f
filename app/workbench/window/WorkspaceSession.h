#pragma once
// The workspace open in the window: its path, a read-only GUI-thread connection for small metadata reads,
// the one writer of its changes (WorkspaceWriter: worker thread, own connection), and the cached run list
// (Workspace::runs(), in plan order). Pages read runs() and start their own background queries on separate
// connections. generation() increases whenever the workspace or its runs change, so a page can drop results
// of a query started before the change. The session watches the workspace file, its -wal file and its folder
// (the -wal file comes and goes): a change another process makes (`cnp ingest` while the window is open)
// re-reads the run catalogue after a short debounce, and runsChanged() is emitted only when the catalogue
// really differs (the pages' own overview caching writes to the file too).
#include "store/Workspace.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QFileSystemWatcher;
class QTimer;

namespace cnp::wb {

class WorkspaceWriter;

class WorkspaceSession : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceSession(QObject* parent = nullptr);
    ~WorkspaceSession() override;

    // Opens (create = make a new empty workspace if missing). On failure returns false, sets *error to
    // one readable line and leaves the previously open workspace open.
    bool open(const QString& path, bool create, QString* error);
    void close();
    bool isOpen() const { return bool(ws_); }
    QString path() const { return path_; }

    const std::vector<RunRecord>& runs() const { return runs_; }
    // The cached run with `runId`; null when none (removed since, or RunId()).
    const RunRecord* findRun(RunId runId) const;
    // By name: only where a name arrives from outside (the command line's --run, tests).
    const RunRecord* findRun(const QString& name) const;
    // Configuration labels in plan order (as the runs list orders them).
    QStringList configurations() const;
    // Workspace::planOrder() as of the last open/reload: the key of every configuration colour.
    const std::vector<std::string>& planOrder() const { return plan_; }
    // The first run of `config` in plan order; null when it has none.
    const RunRecord* firstRunOf(const QString& config) const;
    // The GUI-thread connection (read-only; small reads only); null when closed.
    const Workspace* workspace() const { return ws_.get(); }
    // Every change to the workspace goes through it.
    WorkspaceWriter* writer() const { return writer_; }
    // Why the open workspace cannot be changed (its file, folder or mount is read-only), as the tooltip of
    // a disabled control; empty when it can be (or when none is open).
    QString readOnlyReason() const { return readOnlyReason_; }
    bool canWrite() const { return isOpen() && readOnlyReason_.isEmpty(); }
    // Shared with pages that keep their own reference (the timeline page).
    std::shared_ptr<const Workspace> sharedWorkspace() const { return ws_; }
    quint64 generation() const { return generation_; }

public slots:
    // Re-reads the run list (after an ingest or an edit, View → Reload) and emits runsChanged().
    void reload();
    // Re-reads the run list and emits runsChanged() only when it differs from the cached one.
    void reloadIfChanged();

signals:
    void workspaceChanged(); // opened another workspace or closed
    void runsChanged();      // run list changed (also emitted after workspaceChanged)
    // Re-reading the catalogue failed twice in a row (the read is retried once after a short pause); the
    // last good list stays. One readable line for the status bar.
    void catalogueReadFailed(const QString& message);

private:
    void watch();
    // Reads runs and plan; false (and the cache unchanged) when the read fails.
    bool readCatalogue(std::vector<RunRecord>* runs, std::vector<std::string>* plan);
    void readFailed(const QString& why); // retries once, then catalogueReadFailed()

    std::shared_ptr<const Workspace> ws_;
    WorkspaceWriter* writer_;
    QString readOnlyReason_;
    QFileSystemWatcher* watcher_;
    QTimer* debounce_;
    QString path_;
    std::vector<RunRecord> runs_;
    std::vector<std::string> plan_;
    quint64 generation_ = 0;
    bool retried_ = false; // the last read failed and one more is scheduled
};

} // namespace cnp::wb
