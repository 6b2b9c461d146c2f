#include "TimelineHostPage.h"

#include "PageId.h"
#include "WorkspaceSession.h"
#include "timeline/TimelinePage.h"

#include <QVBoxLayout>

namespace cnp::wb {

TimelineHostPage::TimelineHostPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), timeline_(new TimelinePage) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(timeline_);
    connect(timeline_, &TimelinePage::runLoaded, this, [this](RunId id) {
        if (id == shownRunId_)
            markReady();
    });
    connect(session, &WorkspaceSession::workspaceChanged, this, [this]() {
        shownRunId_ = RunId();
        timeline_->setWorkspace(this->session()->sharedWorkspace());
    });
    connect(session, &WorkspaceSession::runsChanged, timeline_, &TimelinePage::refreshRuns);
    connect(timeline_, &TimelinePage::runPicked, this, [this](RunId id) {
        for (const RunRecord& r : this->session()->runs())
            if (r.id == id)
                emit navigateRequested(int(PageId::Timeline), QString::fromStdString(r.info.name));
    });
}

void TimelineHostPage::setSelectedRun(const QString& runName) {
    if (runName.isEmpty() || runName == run_)
        return;
    run_ = runName;
    if (isVisible())
        refresh();
}

void TimelineHostPage::refresh() {
    const RunRecord* run = session()->findRun(run_);
    if (!run && !session()->runs().empty())
        run = &session()->runs().front();
    if (!run) {
        shownRunId_ = RunId();
        markReady();
        return;
    }
    run_ = QString::fromStdString(run->info.name);
    if (run->id == shownRunId_) {
        markReady();
        return;
    }
    shownRunId_ = run->id;
    timeline_->showRun(run->id);
}

void TimelineHostPage::jumpTo(const QString& runName, std::int32_t rank, Ns start, Ns end) {
    const RunRecord* run = session()->findRun(runName);
    if (!run)
        return;
    run_ = runName;
    shownRunId_ = run->id;
    timeline_->jumpTo(run->id, rank, start, end);
}

void TimelineHostPage::showComparison(const QString& runA, const QString& runB, const QString& eventName) {
    const RunRecord* a = session()->findRun(runA);
    const RunRecord* b = session()->findRun(runB);
    if (!a || !b)
        return;
    run_ = runA;
    shownRunId_ = a->id;
    timeline_->showComparison(a->id, b->id, eventName);
}

} // namespace cnp::wb
