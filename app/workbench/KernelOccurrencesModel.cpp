#include "KernelOccurrencesModel.h"

#include "UnitFormat.h"
#include "store/Workspace.h"

namespace cnp::wb {

KernelOccurrencesModel::KernelOccurrencesModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<KernelOccurrence> KernelOccurrencesModel::readOccurrences(const Workspace& ws, std::int64_t runId,
                                                                      const std::string& kernelName,
                                                                      std::int32_t rank, std::size_t limit) {
    std::vector<KernelOccurrence> out;
    Statement st(ws.db(),
                 "SELECT k.rank, k.device, k.stream, k.start_ns, k.end_ns, k.grid_x, k.grid_y, k.grid_z, "
                 "k.block_x, k.block_y, k.block_z FROM kernels k WHERE k.id BETWEEN ?1 AND ?5 AND "
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
        out.push_back(o);
    }
    return out;
}

void KernelOccurrencesModel::setOccurrences(std::vector<KernelOccurrence> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    origin_ = rows_.empty() ? 0 : rows_.front().start;
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
            return QStringLiteral("+") + UnitFormat::duration(double(o.start - origin_));
        case DurationColumn:
            return UnitFormat::duration(double(o.end - o.start));
        case GridColumn:
            return dims(o.grid);
        case BlockColumn:
            return dims(o.block);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == StartColumn)
            return QStringLiteral("absolute start %1 ns; double-click to show it on the timeline")
                .arg(o.start);
        if (index.column() == DurationColumn)
            return UnitFormat::durationExact(o.end - o.start);
    }
    if (role == Qt::TextAlignmentRole && index.column() <= DurationColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant KernelOccurrencesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Rank", "Device", "Stream", "Start", "Duration", "Grid", "Block"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace cnp::wb
