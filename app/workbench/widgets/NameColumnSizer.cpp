#include "NameColumnSizer.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace cnp::wb {

NameColumnSizer::NameColumnSizer(QTableView* view, int column)
    : QObject(view), view_(view), viewport_(view->viewport()), column_(column) {}

NameColumnSizer* NameColumnSizer::install(QTableView* view, int column) {
    auto* sizer = new NameColumnSizer(view, column);
    QHeaderView* header = view->horizontalHeader();
    header->setSectionResizeMode(column, QHeaderView::Interactive);
    header->setStretchLastSection(false);
    view->viewport()->installEventFilter(sizer);
    // Other columns resize to their contents when rows arrive; size the name column after them.
    const auto later = [sizer]() { QTimer::singleShot(0, sizer, &NameColumnSizer::apply); };
    connect(header, &QHeaderView::sectionResized, sizer, [sizer, column, later](int section) {
        if (section != column && !sizer->applying_)
            later();
    });
    connect(header, &QHeaderView::sectionCountChanged, sizer, later);
    if (view->model()) {
        connect(view->model(), &QAbstractItemModel::modelReset, sizer, later);
        connect(view->model(), &QAbstractItemModel::layoutChanged, sizer, later);
        connect(view->model(), &QAbstractItemModel::rowsInserted, sizer, later);
    }
    sizer->apply();
    return sizer;
}

void NameColumnSizer::apply() {
    QHeaderView* header = view_->horizontalHeader();
    if (column_ >= header->count())
        return;
    int others = 0;
    for (int c = 0; c < header->count(); ++c)
        if (c != column_ && !header->isSectionHidden(c))
            others += header->sectionSize(c);
    const int room = view_->viewport()->width() - others;
    const int width = std::max(kMinWidth, room);
    if (header->sectionSize(column_) == width)
        return;
    applying_ = true;
    header->resizeSection(column_, width);
    applying_ = false;
}

bool NameColumnSizer::eventFilter(QObject* watched, QEvent* e) {
    if (watched == viewport_ && e->type() == QEvent::Resize)
        apply();
    return QObject::eventFilter(watched, e);
}

} // namespace cnp::wb
