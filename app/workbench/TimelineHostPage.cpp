#include "TimelineHostPage.h"

#include "WorkspaceSession.h"
#include "timeline/TimelinePage.h"

#include <QVBoxLayout>

namespace cnp::wb {

TimelineHostPage::TimelineHostPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), timeline_(new TimelinePage) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(timeline_);
    connect(timeline_, &TimelinePage::runLoaded, this, [this](std::int64_t id) {
        if (id == shownRunId_)
            markReady();
    });
    connect(session, &WorkspaceSession::workspaceChanged, this, [this]() {
        shownRunId_ = -1;
        timeline_->setWorkspace(this->session()->sharedWorkspace());
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
        shownRunId_ = -1;
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

} // namespace cnp::wb
