#include "RankTableModel.h"

#include "UnitFormat.h"
#include "store/RankQueries.h"

#include <algorithm>

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
          [this](R r) { return QVariant(offsetText(r.clockOffsetNs)); },
          kNumberAlignment,
          {},
          [this](R r) {
              QString tip = UnitFormat::durationExact(r.clockOffsetNs);
              if (offsetBase_)
                  tip += tr("\nShown from the run's smallest offset, %1 (a clock epoch's offset: the ranks "
                            "differ only by the rest)")
                             .arg(UnitFormat::durationExact(*offsetBase_));
              return QVariant(tip);
          }},
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
    offsetBase_.reset();
    // An offset of an hour or more is a clock's epoch (a synthetic run's CUPTI-to-Unix offset is 1.767e9 s):
    // "1767000000 s" on every rank says nothing, so the ranks show what separates them from the smallest.
    constexpr Ns kEpochLike = Ns{3600} * 1'000'000'000;
    const auto epochLike = [](const RankInfo& r) {
        return r.clockOffsetNs >= kEpochLike || r.clockOffsetNs <= -kEpochLike;
    };
    if (std::any_of(ranks.begin(), ranks.end(), epochLike))
        offsetBase_ = std::min_element(ranks.begin(), ranks.end(), [](const RankInfo& a, const RankInfo& b) {
                          return a.clockOffsetNs < b.clockOffsetNs;
                      })->clockOffsetNs;
    setRowsReset(std::move(ranks));
}

QString RankTableModel::offsetText(Ns offset) const {
    if (!offsetBase_)
        return UnitFormat::duration(double(offset));
    return tr("base + %1").arg(UnitFormat::duration(double(offset - *offsetBase_)));
}

} // namespace cnp::wb
