#include "RankTableModel.h"

#include "UnitFormat.h"
#include "store/Workspace.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace cnp::wb {

RankTableModel::RankTableModel(QObject* parent) : QAbstractTableModel(parent) {}

static std::vector<std::string> jsonStrings(const std::string& json) {
    std::vector<std::string> out;
    const QJsonDocument d = QJsonDocument::fromJson(QByteArray::fromStdString(json));
    for (const auto& v : d.array())
        out.push_back(v.toString().toStdString());
    return out;
}

std::vector<RankInfo> RankTableModel::readRanks(const Workspace& ws, std::int64_t runId) {
    std::vector<RankInfo> out;
    Statement st(ws.db(),
                 "SELECT rank, local_rank, host, pid, gpu_names, gpu_uuids, clock_offset_ns, clock_skew_ns, "
                 "source_file FROM ranks WHERE run_id = ? ORDER BY rank");
    st.bind(1, runId);
    while (st.step()) {
        RankInfo r;
        r.rank = st.i32(0);
        r.localRank = st.i32(1);
        r.host = st.text(2);
        r.pid = st.i64(3);
        r.gpuNames = jsonStrings(st.text(4));
        r.gpuUuids = jsonStrings(st.text(5));
        r.clockOffsetNs = st.i64(6);
        r.clockSkewEstimateNs = st.i64(7);
        r.sourceFile = st.text(8);
        out.push_back(std::move(r));
    }
    return out;
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
