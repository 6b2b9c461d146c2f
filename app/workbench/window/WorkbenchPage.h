#pragma once
// Base of every page in the main window's stack. A page refreshes lazily: when the workspace or its runs
// change it is marked stale, and it reloads when shown (or at once when visible). contentReady() is
// emitted each time the page has drawn the content for the current workspace state — tests, the
// --screenshot mode and the startup-time measurement wait for it.
#include <QWidget>

namespace cnp::wb {

class WorkspaceSession;

class WorkbenchPage : public QWidget {
    Q_OBJECT
public:
    explicit WorkbenchPage(WorkspaceSession* session, QWidget* parent = nullptr);
    WorkspaceSession* session() const { return session_; }
    bool isContentReady() const { return ready_; }
    // The run selected in the workspace dock (pages that show one run follow it).
    virtual void setSelectedRun(const QString& runName) { Q_UNUSED(runName); }

signals:
    void contentReady();
    // A page asks the window to show another page for `runName` (e.g. Kernels -> Timeline).
    void navigateRequested(int pageId, const QString& runName);
    // A page asks the window to show `runName` on the timeline, zoomed to [start, end] (absolute ns).
    void timelineJumpRequested(const QString& runName, int rank, qint64 start, qint64 end);
    // A page asks for the Compare page on `runA` vs `runB` (e.g. an ablation bar: it vs the previous).
    void compareRequested(const QString& runA, const QString& runB);
    // A page asks for the timeline of `runA` with `runB` beneath it, searching `eventName` (a diff row).
    void timelineCompareRequested(const QString& runA, const QString& runB, const QString& eventName);

protected:
    // Reload everything from the session; call markReady() once drawn (possibly asynchronously).
    virtual void refresh() = 0;
    void markReady();
    void markStale();
    void showEvent(QShowEvent* e) override;
    // A theme change (View → Theme) redraws the page: chart items take their colours when drawn.
    void changeEvent(QEvent* e) override;

private:
    WorkspaceSession* session_;
    bool stale_ = true;
    bool ready_ = false;
};

} // namespace cnp::wb
