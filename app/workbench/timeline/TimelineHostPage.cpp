#include "TimelineHostPage.h"

#include "PageId.h"
#include "WorkspaceSession.h"
#include "WorkspaceWriter.h"
#include "store/Workspace.h"
#include "timeline/TimelineBookmarks.h"
#include "timeline/TimelinePage.h"

#include <QVBoxLayout>

namespace cnp::wb {

TimelineHostPage::TimelineHostPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), timeline_(new TimelinePage) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(timeline_);
    for (auto done : {&TimelinePage::runLoaded, &TimelinePage::runLoadFailed})
        connect(timeline_, done, this, [this](RunId id) {
            if (id == shownRunId_)
                markReady();
        });
    connect(session, &WorkspaceSession::workspaceChanged, this, [this]() {
        shownRunId_ = RunId();
        timeline_->setWorkspace(this->session()->sharedWorkspace());
    });
    connect(session, &WorkspaceSession::runsChanged, timeline_, &TimelinePage::refreshRuns);
    connect(timeline_, &TimelinePage::readFailed, this, &WorkbenchPage::statusMessage);
    connect(timeline_, &TimelinePage::bookmarksEdited, this, &TimelineHostPage::storeBookmarks);
    connect(timeline_, &TimelinePage::runPicked, this, [this](RunId id) {
        if (this->session()->findRun(id))
            emit navigateRequested(int(PageId::Timeline), id);
    });
}

void TimelineHostPage::setSelectedRun(RunId runId) {
    if (runId == RunId() || runId == wanted_)
        return;
    wanted_ = runId;
    if (isVisible())
        refresh();
}

void TimelineHostPage::refresh() {
    const RunRecord* run = session()->findRun(wanted_);
    if (!run && !session()->runs().empty())
        run = &session()->runs().front();
    if (!run) {
        shownRunId_ = RunId();
        markReady();
        return;
    }
    wanted_ = run->id;
    if (run->id == shownRunId_) {
        markReady();
        return;
    }
    shownRunId_ = run->id;
    timeline_->showRun(run->id);
}

void TimelineHostPage::jumpTo(RunId runId, RankId rank, Ns start, Ns end,
                              const std::vector<std::int32_t>& openRanks) {
    if (!session()->findRun(runId))
        return;
    wanted_ = shownRunId_ = runId;
    timeline_->jumpTo(runId, rank, start, end, openRanks);
}

void TimelineHostPage::showComparison(RunId runA, RunId runB, const QString& eventName) {
    if (!session()->findRun(runA) || !session()->findRun(runB))
        return;
    wanted_ = shownRunId_ = runA;
    timeline_->showComparison(runA, runB, eventName);
}

void TimelineHostPage::storeBookmarks(RunId runId, const QString& text) {
    // A read-only or shared workspace is never written: the bookmarks stay on the page until it closes.
    if (!session()->canWrite()) {
        emit statusMessage(
            tr("Bookmarks not saved (kept until the workspace closes): %1").arg(session()->readOnlyReason()));
        return;
    }
    session()->writer()->submit(
        tr("Storing the timeline bookmarks"),
        [runId, value = text.toStdString()](Workspace& ws) {
            ws.setRunAttribute(runId, timeline::kBookmarksAttribute, value);
        },
        [this](const QString& error) {
            if (!error.isEmpty())
                emit statusMessage(tr("Bookmarks not saved: %1").arg(error));
        });
}

bool TimelineHostPage::focusSearch() {
    timeline_->focusSearch();
    return true;
}

} // namespace cnp::wb
