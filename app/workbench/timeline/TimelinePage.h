#pragma once
// The "timeline" page: an interactive explorer of one run (or two runs stacked in compare mode).
// Rows: per rank -> GPU -> stream (kernels coloured by category, memcpy, memset), GPU annotations,
// CPU threads (API calls, CPU ops/annotations nested by depth), steps, counters.
// Events are loaded from the workspace in a background thread (progress shown in the page); the GUI
// thread only asks the prepared per-row structures for what is visible (see docs/timeline.md).
#include "core/Ids.h"
#include "core/TraceData.h"

#include <QWidget>

#include <cstdint>
#include <memory>

namespace cnp {
class Workspace;
}

class QAction;
class QToolButton;

namespace cnp::wb {

class CriticalPathPanel;
class TimelinePageImpl;
class TimelineView;

class TimelinePage : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePage(QWidget* parent = nullptr);
    ~TimelinePage() override;

    // The workspace whose runs this page shows. The page keeps a reference; the loader thread opens
    // its own read-only connection to the same file.
    void setWorkspace(std::shared_ptr<const cnp::Workspace> ws);
    // Re-reads the run list of the workspace into the run picker and the compare choice (after an
    // ingest, a rename or a removal), keeping the loaded runs and the current choices.
    void refreshRuns();
    // Window width from which the details dock starts open at the right; below it starts hidden and
    // opens beneath the rows on the first selection, so the events keep the width.
    static constexpr int kWideDetailsWidth = 1600;
    // Height the event area (below the ruler and minimap) keeps whatever the details dock takes: the
    // demo run's rank 0 down to the end of its main CPU thread without scrolling (258 px: 3 group
    // headers of 20 px, steps, annotations, a stream and the thread's 8 nesting lanes of 18 px) and a
    // little more. Issue 15: 265 px at 1024x640 with the details open (211 px of dock), 44 % of the page.
    static constexpr int kMinEventsHeight = 280;
    // A dock beneath the rows opens at this share of the page's height unless the user sized it before
    // (the size they dragged it to is remembered, in QSettings, per dock area).
    static constexpr double kDetailsHeightShare = 0.3;
    // A failed read of the run list is tried once more after this pause (ms) before readFailed().
    static constexpr int kReadRetryMs = 300;

public slots:
    // Loads `runId` (in the background) and fits the whole run into view.
    void showRun(RunId runId);
    // Shows `runId` (loading it first if needed), zooms to [start, end] (absolute ns, as stored in the
    // workspace) and scrolls rank `rank`'s rows into view. Used by the kernel, insight and ablation
    // pages to reach an event, an insight's evidence or a step. `openRanks` non-empty: only those ranks'
    // groups open, side by side (the members of a collective call), the others collapsed.
    void jumpTo(RunId runId, RankId rank, cnp::Ns start, cnp::Ns end,
                const std::vector<std::int32_t>& openRanks = {});
    // Shows `runA` with `runB` stacked beneath (aligned at the step) and searches both for events named
    // exactly `eventName`, zoomed onto its first kernel launch in A, else in B (a kernel diff row of the
    // Compare page; a kernel only B ran).
    void showComparison(RunId runA, RunId runB, const QString& eventName);
    // Keyboard focus to the search field, its text selected (Ctrl+F): typed letters go there, not to
    // the view's W/A/S/D keys.
    void focusSearch();
    // Computes (in the background) and shows the critical path of the step of the selected event, the
    // selected range or the view's middle, on that rank (the first rank in view when nothing is selected):
    // highlighted on the timeline, its breakdown in the "Critical path" dock (Ctrl+Shift+C).
    void showCriticalPath();
    // Bookmarks of the run shown (run A; docs/timeline.md): Ctrl+B adds one at TimelineView::bookmarkTime()
    // with a label it asks for (Cancel adds none); the Bookmarks button lists them to jump back.
    // Each change emits bookmarksEdited for the host to store.
    void addBookmark(cnp::Ns time, const QString& label);
    void removeBookmarks();
    void jumpToBookmark(int index); // centres the window on it, same span; nothing out of range

public:
    QAction* addBookmarkAction() const;
    QToolButton* bookmarkButton() const;
    // The drawing surfaces (run A, and run B in compare mode), for tests and the benchmark.
    TimelineView* view() const;
    TimelineView* compareView() const;
    CriticalPathPanel* criticalPathPanel() const;

signals:
    // Emitted once the events of `runId` are loaded and drawn (tests and the status bar use it).
    void runLoaded(RunId runId);
    // The events of `runId` could not be loaded (the details say why; the stored overview may still show).
    void runLoadFailed(RunId runId);
    // The user chose `runId` in the page's run picker (the host makes it the selected run).
    void runPicked(RunId runId);
    // A read of the workspace failed (after one retry for the run list): one line for the status bar.
    void readFailed(const QString& message);
    // A critical path requested by showCriticalPath() is shown (or its error is, in the panel).
    void criticalPathFinished(bool ok);
    // Run `runId`'s bookmarks changed: `text` is the run attribute's new value
    // (timeline/TimelineBookmarks.h).
    void bookmarksEdited(cnp::RunId runId, const QString& text);

protected:
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override; // the details dock's sizes

private:
    std::unique_ptr<TimelinePageImpl> d_;
};

} // namespace cnp::wb
