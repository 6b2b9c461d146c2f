#pragma once
// Filters a kernel table by category (exact, empty = all) and by a case-insensitive regular expression
// on the kernel name (RE2 via core/NameRegex.h: linear time whatever the pattern); sorts by the source
// model's raw-value role (Qt::UserRole).
#include "core/NameRegex.h"

#include <QSortFilterProxyModel>

#include <memory>

namespace cnp::wb {

class KernelFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    KernelFilterProxy(int nameColumn, int categoryColumn, QObject* parent = nullptr);
    void setCategory(const QString& category);
    // Returns false (and keeps the previous filter) when `pattern` is not a valid regex.
    bool setNamePattern(const QString& pattern);
    // An extra exact-match filter on another column (e.g. the diff class); column -1 = off.
    void setColumnFilter(int column, const QString& value);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int nameColumn_, categoryColumn_;
    QString category_;
    std::unique_ptr<NameRegex> name_; // null = no name filter
    int extraColumn_ = -1;
    QString extraValue_;
};

} // namespace cnp::wb
