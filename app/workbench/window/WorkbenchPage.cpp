#include "WorkbenchPage.h"

#include "WorkspaceSession.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>

#include <utility>

namespace cnp::wb {

WorkbenchPage::WorkbenchPage(WorkspaceSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
    connect(session_, &WorkspaceSession::runsChanged, this, &WorkbenchPage::markStale);
}

void WorkbenchPage::markReady() {
    ready_ = true;
    emit contentReady();
}

bool WorkbenchPage::waitUntilReady(int timeoutMs) {
    if (ready_)
        return true;
    QEventLoop loop;
    connect(this, &WorkbenchPage::contentReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return ready_;
}

void WorkbenchPage::markStale() {
    stale_ = true;
    ready_ = false;
    if (isVisible()) {
        stale_ = false;
        refresh();
    }
}

void WorkbenchPage::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange)
        markStale();
}

void WorkbenchPage::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    // Tab moves on to the next control instead of from cell to cell (issue 32.6: Tab never left a
    // table); the arrow keys move within it.
    if (!std::exchange(tabLeavesViews_, true))
        for (QAbstractItemView* v : findChildren<QAbstractItemView*>())
            v->setTabKeyNavigation(false);
    if (stale_) {
        stale_ = false;
        refresh();
    }
}

} // namespace cnp::wb
