#include "RankTableModel.h"

#include "UnitFormat.h"
#include "store/RankQueries.h"

namespace cnp::wb {

RankTableModel::RankTableModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<RankInfo> RankTableModel::readRanks(const Workspace& ws, std::int64_t runId) {
    return RankQueries(ws).ranksOfRun(runId);
}

void RankTableModel::setRanks(std::vector<RankInfo> ranks) {
    beginResetModel();
    ranks_ = std::move(ranks);
    endResetModel();
}

int RankTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ranks_.size());
}
int RankTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const RankInfo& r = ranks_[size_t(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case RankColumn:
            return r.rank;
        case LocalRankColumn:
            return r.localRank < 0 ? QStringLiteral("—") : QString::number(r.localRank);
        case HostColumn:
            return QString::fromStdString(r.host);
        case PidColumn:
            return qlonglong(r.pid);
        case GpuColumn: {
            QStringList g;
            for (const auto& n : r.gpuNames)
                g << QString::fromStdString(n);
            return g.join(QStringLiteral(", "));
        }
        case OffsetColumn:
            return role == Qt::ToolTipRole ? UnitFormat::durationExact(r.clockOffsetNs)
                                           : UnitFormat::duration(double(r.clockOffsetNs));
        case SkewColumn:
            return role == Qt::ToolTipRole ? UnitFormat::durationExact(r.clockSkewEstimateNs)
                                           : UnitFormat::duration(double(r.clockSkewEstimateNs));
        case SourceColumn:
            return QString::fromStdString(r.sourceFile);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == OffsetColumn || index.column() == SkewColumn ||
                                          index.column() == PidColumn || index.column() == RankColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RankTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case LocalRankColumn:
        return tr("Local rank");
    case HostColumn:
        return tr("Host");
    case PidColumn:
        return tr("PID");
    case GpuColumn:
        return tr("GPUs");
    case OffsetColumn:
        return tr("Clock offset");
    case SkewColumn:
        return tr("Clock skew (±)");
    case SourceColumn:
        return tr("Source file");
    default:
        return {};
    }
}

} // namespace cnp::wb
