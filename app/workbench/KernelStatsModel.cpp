#include "KernelStatsModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include "export/CsvWriter.h"

#include <cmath>

namespace cnp::wb {

KernelStatsModel::KernelStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelStatsModel::setRows(std::vector<KernelStatRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int KernelStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}
int KernelStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

// RFC 4180 quoting shared with `cnp export --format csv` (kernel names hold commas and quotes).
static QString csvField(const std::string& s) {
    return QString::fromStdString(CsvWriter::quote(s));
}

QString KernelStatsModel::toCsv(const std::vector<const KernelStatRow*>& rows) {
    QString out =
        QStringLiteral("name,category,count,total_ns,percent,mean_ns,median_ns,min_ns,max_ns,stddev_ns\n");
    for (const KernelStatRow* r : rows)
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10\n")
                   .arg(csvField(r->name), csvField(r->category))
                   .arg(r->count)
                   .arg(r->totalNs)
                   .arg(r->percent, 0, 'f', 4)
                   .arg(r->meanNs, 0, 'f', 1)
                   .arg(r->medianNs, 0, 'f', 1)
                   .arg(r->minNs)
                   .arg(r->maxNs)
                   .arg(r->stddevNs, 0, 'f', 1);
    return out;
}

QVariant KernelStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const KernelStatRow& r = rows_[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::DisplayRole) {
        switch (c) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case CategoryColumn:
            return QString::fromStdString(r.category);
        case CountColumn:
            return qlonglong(r.count);
        case TotalColumn:
            return UnitFormat::duration(double(r.totalNs));
        case PercentColumn:
            return QString::number(r.percent, 'f', 2) + QStringLiteral(" %");
        case MeanColumn:
            return UnitFormat::duration(r.meanNs);
        case MedianColumn:
            return UnitFormat::duration(r.medianNs);
        case MinColumn:
            return UnitFormat::duration(double(r.minNs));
        case MaxColumn:
            return UnitFormat::duration(double(r.maxNs));
        case StddevColumn:
            return UnitFormat::duration(r.stddevNs);
        default:
            return {};
        }
    }
    if (role == SortRole) {
        switch (c) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case CategoryColumn:
            return QString::fromStdString(r.category);
        case CountColumn:
            return qlonglong(r.count);
        case TotalColumn:
            return qlonglong(r.totalNs);
        case PercentColumn:
            return r.percent;
        case MeanColumn:
            return r.meanNs;
        case MedianColumn:
            return r.medianNs;
        case MinColumn:
            return qlonglong(r.minNs);
        case MaxColumn:
            return qlonglong(r.maxNs);
        case StddevColumn:
            return r.stddevNs;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (c) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case TotalColumn:
            return UnitFormat::durationExact(r.totalNs);
        case MinColumn:
            return UnitFormat::durationExact(r.minNs);
        case MaxColumn:
            return UnitFormat::durationExact(r.maxNs);
        case MeanColumn:
            return UnitFormat::durationExact(std::llround(r.meanNs));
        case MedianColumn:
            return UnitFormat::durationExact(std::llround(r.medianNs));
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && c == CategoryColumn)
        return ChartPalette::categoryColor(QString::fromStdString(r.category));
    if (role == Qt::TextAlignmentRole && c >= CountColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant KernelStatsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Kernel", "Category", "Count", "Total", "% time",
                                  "Mean",   "Median",   "Min",   "Max",   "Std dev"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace cnp::wb
