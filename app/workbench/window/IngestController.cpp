#include "IngestController.h"

#include "BackgroundTask.h"
#include "store/Workspace.h"

#include <cmath>

namespace cnp::wb {

IngestController::IngestController(QObject* parent) : QObject(parent) {
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, [this]() {
        if (!shared_)
            return;
        const int p = shared_->permille.load(std::memory_order_relaxed);
        if (p != lastPermille_) {
            lastPermille_ = p;
            emit progressChanged(p / 1000.0);
        }
    });
}

double IngestController::progress() const {
    return shared_ ? shared_->permille.load() / 1000.0 : 0.0;
}

void IngestController::cancel() {
    if (shared_)
        shared_->cancel.store(true);
}

bool IngestController::start(const QString& workspacePath, const IngestRequest& request) {
    if (running_)
        return false;
    running_ = true;
    lastPermille_ = -1;
    auto shared = std::make_shared<Shared>();
    shared_ = shared;
    const std::string path = workspacePath.toStdString();
    poll_.start();
    runInBackground<IngestResult>(
        this,
        [shared, path, request, probe = probe_]() {
            if (probe)
                probe();
            Workspace ws(path, Workspace::Mode::ReadWrite);
            ProgressSink sink;
            sink.cancel = &shared->cancel;
            sink.progress = [shared](double f) {
                const int p = int(std::lround(std::clamp(f, 0.0, 1.0) * 1000.0));
                shared->permille.store(p, std::memory_order_relaxed);
            };
            return ingest(ws, request, sink);
        },
        [this, shared](TaskOutcome<IngestResult>& o) {
            poll_.stop();
            running_ = false;
            if (o.cancelled || (shared->cancel.load() && !o.value)) {
                emit cancelled();
            } else if (!o.value) {
                emit failed(o.error);
            } else {
                const IngestResult& r = *o.value;
                QString summary = QStringLiteral("%1: %2 events, %3 rank(s)")
                                      .arg(QString::fromStdString(r.runName))
                                      .arg(r.events)
                                      .arg(r.ranks);
                if (r.skipped.count > 0)
                    summary += QStringLiteral(", %1 event(s) skipped (first: %2)")
                                   .arg(r.skipped.count)
                                   .arg(QString::fromStdString(r.skipped.firstReason));
                emit progressChanged(1.0);
                emit finished(r.runId, summary);
            }
        });
    return true;
}

} // namespace cnp::wb
