#pragma once
// The workspace open in the window: its path, a GUI-thread connection for small metadata reads, and
// the cached run list (Workspace::runs(), in plan order). Pages read runs() and start their own
// background queries on separate connections. generation() increases whenever the workspace or its
// runs change, so a page can drop results of a query started before the change.
#include "store/Workspace.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace cnp::wb {

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
    const RunRecord* findRun(const QString& name) const;
    // Configuration labels in plan order (as the runs list orders them).
    QStringList configurations() const;
    // Position of `config` in configurations(); -1 when absent.
    int planIndexOf(const QString& config) const;
    // Names of the runs of `config`, in plan order.
    QStringList runsOf(const QString& config) const;
    // The GUI-thread connection (small reads only); null when closed.
    Workspace* workspace() const { return ws_.get(); }
    // Shared with pages that keep their own reference (the timeline page).
    std::shared_ptr<Workspace> sharedWorkspace() const { return ws_; }
    quint64 generation() const { return generation_; }

public slots:
    // Re-reads the run list (after an ingest or an edit) and emits runsChanged().
    void reload();

signals:
    void workspaceChanged(); // opened another workspace or closed
    void runsChanged();      // run list changed (also emitted after workspaceChanged)

private:
    std::shared_ptr<Workspace> ws_;
    QString path_;
    std::vector<RunRecord> runs_;
    quint64 generation_ = 0;
};

} // namespace cnp::wb
