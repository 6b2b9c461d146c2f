#include "WorkspaceWriter.h"

#include "BackgroundTask.h"
#include "WorkspaceSession.h"

#include "store/Workspace.h"

#include <QWidget>

namespace cnp::wb {

WorkspaceWriter::WorkspaceWriter(WorkspaceSession* session) : QObject(session), session_(session) {}

void WorkspaceWriter::submit(const QString& what, Edit edit, Done done) {
    QString refusal;
    if (!session_->isOpen())
        refusal = tr("No workspace open");
    else if (!session_->readOnlyReason().isEmpty())
        refusal = session_->readOnlyReason();
    if (!refusal.isEmpty()) {
        if (done)
            done(refusal);
        return;
    }
    queue_.push_back({session_->path(), what, std::move(edit), std::move(done)});
    if (!running_)
        startNext();
}

void WorkspaceWriter::enableWhereWritable(std::initializer_list<QWidget*> controls,
                                          const QString& readOnlyReason) {
    static const char* const kOwnToolTip = "cnpWritableToolTip";
    for (QWidget* w : controls) {
        if (!w->property(kOwnToolTip).isValid())
            w->setProperty(kOwnToolTip, w->toolTip());
        w->setEnabled(readOnlyReason.isEmpty());
        w->setToolTip(readOnlyReason.isEmpty() ? w->property(kOwnToolTip).toString() : readOnlyReason);
    }
}

void WorkspaceWriter::startNext() {
    if (queue_.empty()) {
        running_ = false;
        emit busyChanged(false, QString());
        return;
    }
    running_ = true;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    emit busyChanged(true, job.what);
    const std::string path = job.path.toStdString();
    runInBackground<bool>(
        this,
        [path, edit = std::move(job.edit)]() {
            Workspace ws(path, Workspace::Mode::ReadWrite);
            edit(ws);
            return true;
        },
        [this, path = job.path, done = std::move(job.done)](TaskOutcome<bool>& o) {
            const QString error = o.value ? QString() : (o.error.isEmpty() ? tr("cancelled") : o.error);
            if (session_->path() == path)
                session_->reload();
            if (done)
                done(error);
            startNext();
        });
}

} // namespace cnp::wb
