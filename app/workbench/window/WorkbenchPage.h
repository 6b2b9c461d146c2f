#pragma once
// Base of every page in the main window's stack. A page refreshes lazily: when the workspace or its runs
// change it is marked stale, and it reloads when shown (or at once when visible). contentReady() is
// emitted each time the page has drawn the content for the current workspace state — tests, the
// --screenshot mode and the startup-time measurement wait for it.
#include "core/Ids.h"

#include <QWidget>

namespace cnp::wb {

class WorkspaceSession;

class WorkbenchPage : public QWidget {
    Q_OBJECT
public:
    explicit WorkbenchPage(WorkspaceSession* session, QWidget* parent = nullptr);
    WorkspaceSession* session() const { return session_; }
    bool isContentReady() const { return ready_; }
    // Runs the event loop until the page is ready or `timeoutMs` have passed; true when it is ready. The
    // thread sleeps between events (a nested QEventLoop quit by contentReady() or a timer), never polls.
    bool waitUntilReady(int timeoutMs);
    // The run selected in the workspace dock (pages that show one run follow it); RunId() when a
    // configuration or nothing is selected.
    virtual void setSelectedRun(RunId runId) { Q_UNUSED(runId); }
    // Edit → Find (Ctrl+F): puts the keyboard focus in the page's search field, its text selected; false
    // when the page has none.
    virtual bool focusSearch() { return false; }

signals:
    void contentReady();
    // One line for the window's status bar (a read that failed, what the page did instead).
    void statusMessage(const QString& text);
    // Runs travel between pages by id (names are labels only, and a run may be renamed meanwhile).
    // A page asks the window to show another page for `runId` (e.g. Kernels -> Timeline).
    void navigateRequested(int pageId, cnp::RunId runId);
    // A page asks the window to show `runId` on the timeline at `rank`, zoomed to [start, end] (absolute ns).
    void timelineJumpRequested(cnp::RunId runId, cnp::RankId rank, qint64 start, qint64 end);
    // The same for a collective call: `ranks` (its members) open side by side, the others collapsed; the
    // view scrolls to `rank` (its last-arriving member).
    void timelineCallJumpRequested(cnp::RunId runId, cnp::RankId rank, const QList<qint32>& ranks,
                                   qint64 start, qint64 end);
    // A page asks for the Compare page on `runA` vs `runB` (e.g. an ablation bar: it vs the previous).
    void compareRequested(cnp::RunId runA, cnp::RunId runB);
    // A page asks for the timeline of `runA` with `runB` beneath it, searching `eventName` (a diff row).
    void timelineCompareRequested(cnp::RunId runA, cnp::RunId runB, const QString& eventName);

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
    bool tabLeavesViews_ = false; // the page's item views were set to pass Tab on (first show)
    bool ready_ = false;
};

} // namespace cnp::wb
