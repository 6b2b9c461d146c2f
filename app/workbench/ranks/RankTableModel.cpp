#include "RankTableModel.h"

#include "UnitFormat.h"
#include "store/RankQueries.h"

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

std::vector<RankInfo> RankTableModel::readRanks(const Workspace& ws, RunId runId) {
    return RankQueries(ws).ranksOfRun(runId);
}

void RankTableModel::setRanks(std::vector<RankInfo> ranks) {
    setRowsReset(std::move(ranks));
}

} // namespace cnp::wb
