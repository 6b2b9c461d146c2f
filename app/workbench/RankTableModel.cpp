#include "RankTableModel.h"

#include "UnitFormat.h"
#include "store/Workspace.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace cnp::wb {

RankTableModel::RankTableModel(QObject* parent) : RowTableModel(parent) {
    using R = const RankInfo&;
    // Display and tooltip: the same text, except the exact ns of the clock figures.
    auto same = [](ColumnSpec c) {
        c.tooltip = c.display;
        return c;
    };
    setColumns(
        {same({tr("Rank"), [](R r) { return QVariant(r.rank); }, kNumberAlignment}),
         same({tr("Local rank"),
               [](R r) {
                   return QVariant(r.localRank < 0 ? QStringLiteral("—") : QString::number(r.localRank));
               }}),
         same({tr("Host"), [](R r) { return QVariant(QString::fromStdString(r.host)); }}),
         same({tr("PID"), [](R r) { return QVariant(qlonglong(r.pid)); }, kNumberAlignment}),
         same({tr("GPUs"),
               [](R r) {
                   QStringList g;
                   for (const auto& n : r.gpuNames)
                       g << QString::fromStdString(n);
                   return QVariant(g.join(QStringLiteral(", ")));
               }}),
         {tr("Clock offset"),
          [](R r) { return QVariant(UnitFormat::duration(double(r.clockOffsetNs))); },
          kNumberAlignment,
          {},
          [](R r) { return QVariant(UnitFormat::durationExact(r.clockOffsetNs)); }},
         {tr("Clock skew (±)"),
          [](R r) { return QVariant(UnitFormat::duration(double(r.clockSkewEstimateNs))); },
          kNumberAlignment,
          {},
          [](R r) { return QVariant(UnitFormat::durationExact(r.clockSkewEstimateNs)); }},
         same({tr("Source file"), [](R r) { return QVariant(QString::fromStdString(r.sourceFile)); }})},
        ColumnCount);
}

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
    setRowsReset(std::move(ranks));
}

} // namespace cnp::wb
