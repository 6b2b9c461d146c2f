#pragma once
// Runs cnp::ingest() on a worker thread with its own read-write connection to the workspace file.
// Progress travels through an atomic (polled every 50 ms by a GUI-thread timer, so the GUI thread is
// never flooded with signals); Cancel raises the std::atomic<bool> the pipeline checks between batches,
// and the pipeline's transaction leaves the workspace unchanged. One ingest at a time.
#include "ingest/IngestPipeline.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

namespace cnp::wb {

class IngestController : public QObject {
    Q_OBJECT
public:
    explicit IngestController(QObject* parent = nullptr);
    bool isRunning() const { return running_; }
    // Starts an ingest into the workspace at `workspacePath`. Returns false if one is already running.
    bool start(const QString& workspacePath, const IngestRequest& request);
    // Fraction done in [0, 1] as last reported by the pipeline.
    double progress() const;
    // Called on the worker thread as each ingest starts, before it opens the workspace (tests use it to
    // show the work is off the GUI thread while the GUI thread keeps serving events).
    void setWorkerProbe(std::function<void()> probe) { probe_ = std::move(probe); }

public slots:
    void cancel();

signals:
    void progressChanged(double fraction);
    void finished(cnp::RunId runId, const QString& summary); // the stored run
    void failed(const QString& message);
    void cancelled();

private:
    struct Shared {
        std::atomic<bool> cancel{false};
        std::atomic<int> permille{0};
    };
    std::shared_ptr<Shared> shared_;
    std::function<void()> probe_;
    QTimer poll_;
    bool running_ = false;
    int lastPermille_ = -1;
};

} // namespace cnp::wb
