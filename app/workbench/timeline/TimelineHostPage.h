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
    void setSelectedRun(const QString& runName) override;
    TimelinePage* timeline() const { return timeline_; }
    // Shows `runName` zoomed to [start, end] on `rank`.
    void jumpTo(const QString& runName, std::int32_t rank, Ns start, Ns end);
    // Shows `runA` with `runB` beneath it and searches `eventName` (exactly) in A.
    void showComparison(const QString& runA, const QString& runB, const QString& eventName);

protected:
    void refresh() override;

private:
    TimelinePage* timeline_;
    QString run_;
    RunId shownRunId_; // RunId(): none
};

} // namespace cnp::wb
