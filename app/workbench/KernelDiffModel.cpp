#include "KernelDiffModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

namespace cnp::wb {

KernelDiffModel::KernelDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelDiffModel::setRows(std::vector<KernelDiffRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int KernelDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}
int KernelDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const KernelDiffRow& r = rows_[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::DisplayRole) {
        switch (c) {
        case NameColumn:
            return QString::fromStdString(r.name) +
                   (r.namesA > 1 || r.namesB > 1
                        ? QStringLiteral("  [%1/%2 names]").arg(r.namesA).arg(r.namesB)
                        : QString());
        case CategoryColumn:
            return QString::fromStdString(r.category);
        case ClassColumn:
            return QString::fromStdString(r.cls);
        case CountAColumn:
            return qlonglong(r.countA);
        case CountBColumn:
            return qlonglong(r.countB);
        case TotalAColumn:
            return UnitFormat::duration(double(r.totalA));
        case TotalBColumn:
            return UnitFormat::duration(double(r.totalB));
        case DeltaColumn:
            return (r.delta > 0 ? QStringLiteral("+") : QString()) + UnitFormat::duration(double(r.delta));
        case MeanAColumn:
            return r.meanA() ? UnitFormat::duration(*r.meanA()) : QStringLiteral("—");
        case MeanBColumn:
            return r.meanB() ? UnitFormat::duration(*r.meanB()) : QStringLiteral("—");
        case RatioColumn:
            return r.perCallRatio() ? UnitFormat::ratio(*r.perCallRatio()) : QStringLiteral("—");
        default:
            return {};
        }
    }
    if (role == Qt::UserRole) {
        switch (c) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case CategoryColumn:
            return QString::fromStdString(r.category);
        case ClassColumn:
            return QString::fromStdString(r.cls);
        case CountAColumn:
            return qlonglong(r.countA);
        case CountBColumn:
            return qlonglong(r.countB);
        case TotalAColumn:
            return qlonglong(r.totalA);
        case TotalBColumn:
            return qlonglong(r.totalB);
        case DeltaColumn:
            return qlonglong(r.delta);
        case MeanAColumn:
            return r.meanA() ? QVariant(*r.meanA()) : QVariant();
        case MeanBColumn:
            return r.meanB() ? QVariant(*r.meanB()) : QVariant();
        case RatioColumn:
            return r.perCallRatio() ? QVariant(*r.perCallRatio()) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (c) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case TotalAColumn:
            return UnitFormat::durationExact(r.totalA);
        case TotalBColumn:
            return UnitFormat::durationExact(r.totalB);
        case DeltaColumn:
            return UnitFormat::durationExact(r.delta);
        case RatioColumn:
            return tr("Mean time per call in B divided by that in A (> 1: each call is slower in B)");
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && (c == DeltaColumn || c == ClassColumn)) {
        if (r.cls == "faster" || r.cls == "removed")
            return ChartPalette::positiveDeltaColor();
        if (r.cls == "slower" || r.cls == "added")
            return ChartPalette::negativeDeltaColor();
    }
    if (role == Qt::DecorationRole && c == CategoryColumn)
        return ChartPalette::categoryColor(QString::fromStdString(r.category));
    if (role == Qt::TextAlignmentRole && c >= CountAColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant KernelDiffModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Kernel",      "Category",    "Class",       "Count A",
                                  "Count B",     "Total A",     "Total B",     "Δ total",
                                  "Mean A/call", "Mean B/call", "B/A per call"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace cnp::wb
