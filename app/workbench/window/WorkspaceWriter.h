#pragma once
// The one way the workbench changes a workspace: every edit (rename, relabel, remove a run, the plan
// order, the ablation source, the MFU inputs) runs on a worker thread with its own read-write connection,
// one at a time in the order submitted, while the GUI thread's connection only reads. The outcome comes
// back to the submitter on the GUI thread as an error text (empty: written); no exception reaches a slot.
// On a read-only workspace nothing is submitted: WorkspaceSession::readOnlyReason() says why, and the
// controls that would write are disabled with that reason as their tooltip.
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <initializer_list>

class QWidget;

namespace cnp {
class Workspace;
}

namespace cnp::wb {

class WorkspaceSession;

class WorkspaceWriter : public QObject {
    Q_OBJECT
public:
    using Edit = std::function<void(Workspace&)>;
    using Done = std::function<void(const QString& error)>; // runs on the GUI thread; error empty = written

    explicit WorkspaceWriter(WorkspaceSession* session);

    // True while an edit runs or waits.
    bool isBusy() const { return running_ || !queue_.empty(); }
    // Queues `edit` of the open workspace; `what` ("Renaming base") is shown while it runs. After it, `done`
    // runs and the session re-reads its catalogue (when the same workspace is still open). On a closed
    // or read-only workspace `done` gets the reason at once and nothing is queued.
    void submit(const QString& what, Edit edit, Done done = {});

    // Enables `controls` (ones that would write) when `readOnlyReason` is empty; else disables them with
    // the reason as their tooltip. Each control's own tooltip is kept on the first call and restored.
    static void enableWhereWritable(std::initializer_list<QWidget*> controls, const QString& readOnlyReason);

signals:
    // Emitted when an edit starts (what = its description) and when the queue has drained (busy false).
    void busyChanged(bool busy, const QString& what);

private:
    struct Job {
        QString path, what;
        Edit edit;
        Done done;
    };
    void startNext();

    WorkspaceSession* session_;
    std::deque<Job> queue_;
    bool running_ = false;
};

} // namespace cnp::wb
