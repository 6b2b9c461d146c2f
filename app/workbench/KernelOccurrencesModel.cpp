#include "KernelOccurrencesModel.h"

#include "UnitFormat.h"
#include "store/KernelOccurrenceQueries.h"

#include <QLocale>

namespace cnp::wb {

KernelOccurrencesModel::KernelOccurrencesModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<KernelOccurrence> KernelOccurrencesModel::readOccurrences(const Workspace& ws, std::int64_t runId,
                                                                      const std::string& kernelName,
                                                                      std::int32_t rank, std::size_t limit) {
    return KernelOccurrenceQueries(ws).occurrences(runId, kernelName, rank, limit);
}

void KernelOccurrencesModel::setOccurrences(std::vector<KernelOccurrence> rows, Ns runStart) {
    beginResetModel();
    rows_ = std::move(rows);
    origin_ = runStart;
    endResetModel();
}

int KernelOccurrencesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}
int KernelOccurrencesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelOccurrencesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const KernelOccurrence& o = rows_[size_t(index.row())];
    auto dims = [](const std::int32_t* d) {
        return QStringLiteral("%1×%2×%3").arg(d[0]).arg(d[1]).arg(d[2]);
    };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case RankColumn:
            return o.rank;
        case DeviceColumn:
            return o.device;
        case StreamColumn:
            return qlonglong(o.stream);
        case StartColumn:
            return UnitFormat::duration(double(o.start - origin_));
        case DurationColumn:
            return UnitFormat::duration(double(o.end - o.start));
        case GridColumn:
            return dims(o.grid);
        case BlockColumn:
            return dims(o.block);
        case RegistersColumn:
            return o.registers;
        case SharedMemoryColumn:
            return QLocale().formattedDataSize(o.staticSmem + o.dynamicSmem, 1, QLocale::DataSizeIecFormat);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == StartColumn)
            return QStringLiteral("%1 after the run start (absolute %2 ns); double-click to show it on the "
                                  "timeline")
                .arg(UnitFormat::durationExact(o.start - origin_))
                .arg(o.start);
        if (index.column() == SharedMemoryColumn)
            return QStringLiteral("%1 B static + %2 B dynamic").arg(o.staticSmem).arg(o.dynamicSmem);
        if (index.column() == DurationColumn)
            return UnitFormat::durationExact(o.end - o.start);
    }
    if (role == Qt::UserRole && index.column() == StartColumn)
        return qlonglong(o.start - origin_);
    if (role == Qt::TextAlignmentRole && index.column() != GridColumn && index.column() != BlockColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant KernelOccurrencesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Rank", "Device", "Stream",    "Start since run start", "Duration",
                                  "Grid", "Block",  "Registers", "Shared memory"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace cnp::wb
