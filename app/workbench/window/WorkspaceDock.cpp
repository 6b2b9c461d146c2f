#include "WorkspaceDock.h"

#include "RunTreeModel.h"
#include "WorkspaceSession.h"

#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTreeView>

#include <algorithm>

namespace cnp::wb {

WorkspaceDock::WorkspaceDock(WorkspaceSession* session, QWidget* parent)
    : QDockWidget(tr("Workspace"), parent), session_(session), model_(new RunTreeModel(this)),
      view_(new QTreeView) {
    setObjectName(QStringLiteral("workspaceDock"));
    view_->setObjectName(QStringLiteral("runTree"));
    view_->setModel(model_);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(RunTreeModel::NameColumn, QHeaderView::Stretch);
    for (int c = RunTreeModel::RanksColumn; c < RunTreeModel::ColumnCount; ++c)
        view_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // Names are what the user looks for: they take the room (elided in the middle when they must, the
    // tooltip has the full metadata); the source format is on the Run page and in the tooltip.
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->setColumnHidden(RunTreeModel::FormatColumn, true);
    view_->setMinimumWidth(200);
    view_->viewport()->installEventFilter(this);
    setWidget(view_);
    connect(session_, &WorkspaceSession::runsChanged, this, &WorkspaceDock::reload);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this]() { emit selectedRunChanged(selectedRun()); });
    connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const QVariant run = i.siblingAtColumn(0).data(RunTreeModel::RunIdRole);
        if (run.isValid())
            emit runActivated(RunId(run.toLongLong()));
    });
    connect(view_, &QTreeView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex i = view_->indexAt(pos);
        if (i.isValid())
            view_->setCurrentIndex(i);
        if (runActions_.isEmpty())
            return;
        QMenu menu;
        menu.addActions(runActions_);
        menu.exec(view_->viewport()->mapToGlobal(pos));
    });
    reload();
}

void WorkspaceDock::reload() {
    const RunId keep = selectedRun();
    model_->setRuns(session_->runs(), session_->planOrder());
    view_->expandAll();
    // A configuration's row spans the tree's width (its run count is in the tooltip): its name then has
    // the room of the Ranks and Data columns too ("Bas…CCL" at 1024x640 before).
    for (int row = 0; row < model_->rowCount(); ++row)
        view_->setFirstColumnSpanned(row, QModelIndex(), true);
    if (keep != RunId())
        selectRun(keep);
    fitColumns();
    emit selectedRunChanged(selectedRun());
}

bool WorkspaceDock::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QDockWidget::eventFilter(watched, event);
}

void WorkspaceDock::fitColumns() {
    // From size hints only (never from the current section widths), so the decision does not flip
    // back and forth as the header re-lays out. O(rows) per call.
    // The name column's hint covers the run rows (configuration rows span) and the indentation.
    const int need = columnHint(RunTreeModel::NameColumn) + columnHint(RunTreeModel::RanksColumn) +
                     columnHint(RunTreeModel::KindColumn);
    view_->setColumnHidden(RunTreeModel::KindColumn, need > view_->viewport()->width());
}

int WorkspaceDock::columnHint(int column) const {
    return std::max(static_cast<const QAbstractItemView*>(view_)->sizeHintForColumn(column),
                    view_->header()->sectionSizeHint(column));
}

int WorkspaceDock::preferredWidth() const {
    // Every column but the source format (always hidden), the Data column too while fitColumns hides
    // it: this is the width at which it shows again.
    int columns = 0;
    for (int c = 0; c < RunTreeModel::ColumnCount; ++c)
        if (c != RunTreeModel::FormatColumn)
            columns += columnHint(c);
    // A configuration's row spans every column (sizeHintForColumn leaves spanned rows out): its name,
    // bold, after the tree's indentation and the colour swatch.
    int spanned = 0;
    for (int row = 0; row < model_->rowCount(); ++row) {
        const QModelIndex i = model_->index(row, RunTreeModel::NameColumn);
        QStyleOptionViewItem option;
        option.initFrom(view_);
        option.font = i.data(Qt::FontRole).value<QFont>();
        option.decorationSize = view_->iconSize().isValid() ? view_->iconSize() : QSize(16, 16);
        spanned =
            std::max(spanned, view_->indentation() + view_->itemDelegate()->sizeHint(option, i).width());
    }
    // The tree's frame and a vertical scroll bar, so a long list does not elide the names again.
    const int chrome = 2 * view_->frameWidth() + view_->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8;
    return std::max(columns, spanned) + chrome;
}

RunId WorkspaceDock::selectedRun() const {
    const QVariant run = view_->currentIndex().siblingAtColumn(0).data(RunTreeModel::RunIdRole);
    return run.isValid() ? RunId(run.toLongLong()) : RunId();
}

QString WorkspaceDock::selectedConfiguration() const {
    return view_->currentIndex().siblingAtColumn(0).data(RunTreeModel::ConfigRole).toString();
}

void WorkspaceDock::selectRun(RunId runId) {
    const QModelIndex i = model_->indexOfRun(runId);
    if (i.isValid())
        view_->setCurrentIndex(i);
}

void WorkspaceDock::setRunActions(const QList<QAction*>& actions) {
    runActions_ = actions;
}

} // namespace cnp::wb
