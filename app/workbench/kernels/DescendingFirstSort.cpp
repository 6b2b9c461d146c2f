#include "DescendingFirstSort.h"

#include <QHeaderView>
#include <QTableView>

#include <memory>

namespace cnp::wb {

namespace {
bool isNumericColumn(const QAbstractItemModel* model, int column) {
    if (!model || model->rowCount() == 0)
        return false;
    const int align = model->index(0, column).data(Qt::TextAlignmentRole).toInt();
    return (align & Qt::AlignRight) != 0;
}
} // namespace

void sortNumbersDescendingFirst(QTableView* view) {
    QHeaderView* header = view->horizontalHeader();
    // The column sorted before the click: a click on another column is a "first click" there.
    auto last = std::make_shared<int>(header->sortIndicatorSection());
    QObject::connect(
        header, &QHeaderView::sortIndicatorChanged, view,
        [view, header, last](int section, Qt::SortOrder order) {
            const bool firstClick = section != *last;
            *last = section;
            if (firstClick && order == Qt::AscendingOrder && isNumericColumn(view->model(), section))
                header->setSortIndicator(section, Qt::DescendingOrder); // re-emits; then not a first click
        });
}

} // namespace cnp::wb
