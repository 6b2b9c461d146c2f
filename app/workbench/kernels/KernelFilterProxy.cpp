#include "KernelFilterProxy.h"

namespace cnp::wb {

KernelFilterProxy::KernelFilterProxy(int nameColumn, int categoryColumn, QObject* parent)
    : QSortFilterProxyModel(parent), nameColumn_(nameColumn), categoryColumn_(categoryColumn) {
    setSortRole(Qt::UserRole);
    setDynamicSortFilter(true);
}

void KernelFilterProxy::setCategory(const QString& category) {
    category_ = category;
    invalidateFilter();
}

bool KernelFilterProxy::setNamePattern(const QString& pattern) {
    if (pattern.isEmpty()) {
        name_.reset();
    } else {
        auto re = std::make_unique<NameRegex>(pattern.toStdString(), NameRegex::Case::Insensitive);
        if (!re->valid())
            return false;
        name_ = std::move(re);
    }
    invalidateFilter();
    return true;
}

void KernelFilterProxy::setColumnFilter(int column, const QString& value) {
    extraColumn_ = column;
    extraValue_ = value;
    invalidateFilter();
}

bool KernelFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    const QAbstractItemModel* m = sourceModel();
    if (!category_.isEmpty() &&
        m->index(row, categoryColumn_, parent).data(Qt::UserRole).toString() != category_)
        return false;
    if (extraColumn_ >= 0 && !extraValue_.isEmpty() &&
        m->index(row, extraColumn_, parent).data(Qt::UserRole).toString() != extraValue_)
        return false;
    if (name_ &&
        !name_->search(m->index(row, nameColumn_, parent).data(Qt::UserRole).toString().toStdString()))
        return false;
    return true;
}

} // namespace cnp::wb
