#pragma once
// Hosts the timeline engineer's TimelinePage (app/workbench/timeline) as one of the window's pages:
// hands it the workspace, shows the run selected in the dock, forwards jumps from other pages.
#include "WorkbenchPage.h"

#include "core/Ids.h"
#include "core/TraceData.h"

namespace cnp::wb {

class TimelinePage;

class TimelineHostPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit TimelineHostPage(WorkspaceSession* session, QWidget* parent = nullptr);
    void setSelectedRun(RunId runId) override;
    bool focusSearch() override;
    TimelinePage* timeline() const { return timeline_; }
    // Shows `runId` zoomed to [start, end] on `rank`; nothing when the run is not in the session.
    // `openRanks` non-empty: only those ranks' groups open (TimelinePage::jumpTo).
    void jumpTo(RunId runId, RankId rank, Ns start, Ns end, const std::vector<std::int32_t>& openRanks = {});
    // Shows `runA` with `runB` beneath it and searches `eventName` (exactly) in A; nothing when either
    // run is not in the session.
    void showComparison(RunId runA, RunId runB, const QString& eventName);

    // Stores run `runId`'s bookmarks (run attribute timeline.bookmarks) through the session's writer; on a
    // read-only workspace nothing is written and the status bar says so.
    void storeBookmarks(RunId runId, const QString& text);

protected:
    void refresh() override;

private:
    TimelinePage* timeline_;
    RunId wanted_;     // the run selected in the dock or last jumped to (RunId(): none yet)
    RunId shownRunId_; // RunId(): none
};

} // namespace cnp::wb
