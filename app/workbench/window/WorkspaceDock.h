#pragma once
// The dock listing the workspace's runs grouped by configuration (RunTreeModel). Its context menu shows
// the window's run actions (rename, relabel, remove) for the run under the cursor. When the names would
// not fit beside the Data column, the column hides (synthetic runs' names are in its colour, and the
// tooltip says so) and shows again once there is room.
#include "core/Ids.h"

#include <QDockWidget>
#include <QList>

class QTreeView;
class QAction;

namespace cnp::wb {

class RunTreeModel;
class WorkspaceSession;

class WorkspaceDock : public QDockWidget {
    Q_OBJECT
public:
    WorkspaceDock(WorkspaceSession* session, QWidget* parent = nullptr);
    // Id of the selected run; RunId() when a configuration or nothing is selected.
    RunId selectedRun() const;
    // Label of the selected configuration (or of the selected run's configuration).
    QString selectedConfiguration() const;
    // Selects the run with `runId`; nothing changes when the tree does not list it.
    void selectRun(RunId runId);
    void setRunActions(const QList<QAction*>& actions);
    RunTreeModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    // The width that shows every configuration and run name whole beside the other columns.
    int preferredWidth() const;

signals:
    void selectedRunChanged(cnp::RunId runId); // RunId(): a configuration or nothing selected
    void runActivated(cnp::RunId runId);       // double-click on a run

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void reload();
    // Hides the Data column while the run names need its room; shows it when all fit.
    void fitColumns();
    // Width column `column` needs: its widest cell or its header, whichever is wider.
    int columnHint(int column) const;
    WorkspaceSession* session_;
    RunTreeModel* model_;
    QTreeView* view_;
    QList<QAction*> runActions_;
};

} // namespace cnp::wb
