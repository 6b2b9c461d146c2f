#pragma once
// Events on demand in the workbench (docs/launcher.md): fetches from the cluster every shard of a run that
// was ingested there and links them into the workspace (launch/ClusterEventFetch.h), in the background,
// reporting the transfer as it goes. The plan it needs is the run's own (run attribute plan.path, when that
// file still has the run's plan.hash), else the one the user picks.
#include "core/Ids.h"

#include <QObject>
#include <QString>

#include <string>

class QWidget;

namespace cnp::wb {

class EventFetchController : public QObject {
    Q_OBJECT
public:
    explicit EventFetchController(QWidget* parent);

    bool busy() const { return busy_; }
    // Starts fetching run `run` of the workspace at `wsPath`; asks for the plan when the run's is gone or
    // changed (nothing starts when the user cancels). Ignored while a fetch runs.
    void fetch(const std::string& wsPath, RunId run);

signals:
    void progress(const QString& message);
    // `error` is empty when every shard was fetched and linked.
    void finished(cnp::RunId run, const QString& error);

private:
    // The plan file of run `run`: plan.path when its content's hash is plan.hash, else the user's pick ("" on
    // cancel).
    QString planFile(const std::string& wsPath, RunId run);

    QWidget* parent_;
    bool busy_ = false;
};

} // namespace cnp::wb
