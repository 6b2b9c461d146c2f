#include "KernelOccurrencesModel.h"

#include "UnitFormat.h"
#include "store/Workspace.h"

#include <QLocale>

namespace cnp::wb {

KernelOccurrencesModel::KernelOccurrencesModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<KernelOccurrence> KernelOccurrencesModel::readOccurrences(const Workspace& ws, std::int64_t runId,
                                                                      const std::string& kernelName,
                                                                      std::int32_t rank, std::size_t limit) {
    std::vector<KernelOccurrence> out;
    Statement st(ws.db(),
                 "SELECT k.rank, k.device, k.stream, k.start_ns, k.end_ns, k.grid_x, k.grid_y, k.grid_z, "
                 "k.block_x, k.block_y, k.block_z, k.registers, k.static_smem, k.dynamic_smem FROM kernels k "
                 "WHERE k.id BETWEEN ?1 AND ?5 AND "
                 "k.name_id = (SELECT id FROM strings WHERE value = ?2) AND (?3 < 0 OR k.rank = ?3) "
                 "ORDER BY k.start_ns LIMIT ?4");
    const IdRange rows = ws.eventRows(runId, "kernels");
    st.bind(1, rows.first).bind(2, std::string_view(kernelName)).bind(3, rank).bind(4, std::int64_t(limit));
    st.bind(5, rows.last);
    while (st.step()) {
        KernelOccurrence o;
        o.rank = st.i32(0);
        o.device = st.i32(1);
        o.stream = st.i64(2);
        o.start = st.i64(3);
        o.end = st.i64(4);
        for (int i = 0; i < 3; ++i) {
            o.grid[i] = st.i32(5 + i);
            o.block[i] = st.i32(8 + i);
        }
        o.registers = st.i32(11);
        o.staticSmem = st.i64(12);
        o.dynamicSmem = st.i64(13);
        out.push_back(o);
    }
    return out;
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
