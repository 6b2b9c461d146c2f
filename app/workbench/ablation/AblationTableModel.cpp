#include "AblationTableModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include <QColor>

namespace cnp::wb {

AblationTableModel::AblationTableModel(QObject* parent) : RowTableModel(parent, Qt::UserRole) {
    using R = const AblationConfig&;
    auto dur = [](Ns ns) { return QVariant(UnitFormat::duration(double(ns))); };
    auto exact = [](Ns ns) { return QVariant(UnitFormat::durationExact(ns)); };
    auto raw = [](Ns ns) { return QVariant(qint64(ns)); };
    // A duration column: readable text, raw ns to sort by, exact ns in the tooltip.
    auto time = [=](const QString& header, Ns AblationConfig::*v) {
        return ColumnSpec{header, [=](R c) { return dur(c.*v); }, kNumberAlignment,
                          [=](R c) { return raw(c.*v); }, [=](R c) { return exact(c.*v); }};
    };
    auto mean = [=](const QString& header, Ns BreakdownNs::*v) {
        return ColumnSpec{header, [=](R c) { return dur(c.breakdownMeanNs.*v); }, kNumberAlignment,
                          [=](R c) { return raw(c.breakdownMeanNs.*v); },
                          [=](R c) { return exact(c.breakdownMeanNs.*v); }};
    };
    const QString significance =
        tr("Significant only when the 95% bootstrap CI of the ratio excludes 1 (n.s. "
           "= not significant)");
    const auto N = kNumberAlignment;
    setColumns(
        {{tr("Configuration"),
          [this](R c) {
              return QVariant(QString::fromStdString(c.config) +
                              (isBaseline(c) ? QStringLiteral(" (baseline)") : QString()));
          },
          Qt::AlignLeft | Qt::AlignVCenter, [](R c) { return QVariant(QString::fromStdString(c.config)); }},
         {tr("Runs"), [](R c) { return QVariant(int(c.runs.size())); }, N,
          [](R c) { return QVariant(int(c.runs.size())); },
          [](R c) {
              QStringList runs;
              for (const auto& r : c.runs)
                  runs << QString::fromStdString(r);
              return QVariant(runs.join(QStringLiteral(", ")));
          }},
         {tr("Steps"), [](R c) { return QVariant(int(c.stepTimesNs.size())); }, N,
          [](R c) { return QVariant(int(c.stepTimesNs.size())); }},
         time(tr("Median step"), &AblationConfig::medianStepNs),
         {tr("95% CI"),
          [](R c) {
              if (!c.hasCi)
                  return QVariant(tr("too few steps"));
              return QVariant(QStringLiteral("%1 – %2").arg(UnitFormat::duration(double(c.ciLoNs)),
                                                            UnitFormat::duration(double(c.ciHiNs))));
          },
          N, [=](R c) { return raw(c.ciLoNs); },
          [](R c) {
              if (!c.hasCi)
                  return QVariant(QString::fromStdString(c.ciMissingReason));
              return QVariant(
                  QStringLiteral("95% bootstrap CI of the median: %1 – %2")
                      .arg(UnitFormat::durationExact(c.ciLoNs), UnitFormat::durationExact(c.ciHiNs)));
          }},
         {tr("Throughput"),
          [](R c) {
              return QVariant(UnitFormat::rate(c.throughput, QString::fromStdString(c.throughputUnit)));
          },
          N, [](R c) { return QVariant(c.throughput); }},
         {tr("MFU"), [](R c) { return QVariant(c.mfu ? UnitFormat::percent(*c.mfu) : QStringLiteral("—")); },
          N, [](R c) { return c.mfu ? QVariant(*c.mfu) : QVariant(); }},
         {tr("Speedup vs baseline"),
          [this](R c) {
              return QVariant(isBaseline(c) ? UnitFormat::ratio(1.0) + QStringLiteral(" (baseline)")
                                            : ratioText(c.speedupVsBaseline));
          },
          N, [](R c) { return QVariant(c.speedupVsBaseline.value); },
          [=](R) { return QVariant(significance); }},
         {tr("Gain vs previous"),
          [](R c) { return QVariant(c.gainVsPrevious ? ratioText(*c.gainVsPrevious) : QStringLiteral("—")); },
          N, [](R c) { return c.gainVsPrevious ? QVariant(c.gainVsPrevious->value) : QVariant(); },
          [=](R) { return QVariant(significance); }},
         time(tr("Mean step"), &AblationConfig::meanStepNs),
         mean(tr("Compute"), &BreakdownNs::compute),
         mean(tr("Exposed comm."), &BreakdownNs::communication),
         mean(tr("Overlap"), &BreakdownNs::overlap),
         mean(tr("Memory"), &BreakdownNs::memory),
         mean(tr("Idle"), &BreakdownNs::idle),
         {tr("Log step"),
          [](R c) {
              return QVariant(c.log && c.log->medianStepNs > 0
                                  ? UnitFormat::duration(double(c.log->medianStepNs))
                                  : QStringLiteral("—"));
          },
          N}},
        ColumnCount);
}

void AblationTableModel::setResult(const AblationResult& result, const std::vector<std::string>& plan) {
    beginResetModel();
    mutableRows() = result.configs;
    baseline_ = result.baseline;
    plan_ = plan;
    endResetModel();
}

QString AblationTableModel::ratioText(const RatioWithCi& r) {
    QString s = UnitFormat::ratioWithCi(r.value, r.hasCi, r.ci95.lo, r.ci95.hi);
    if (r.hasCi && !r.significant)
        s += QStringLiteral(" n.s.");
    return s;
}

QVariant AblationTableModel::extraData(const AblationConfig& c, int column, int role) const {
    if (role == Qt::DecorationRole && column == ConfigColumn)
        return ChartPalette::configurationColor(QString::fromStdString(c.config), plan_);
    if (role == Qt::ForegroundRole) {
        if ((column == SpeedupColumn && !isBaseline(c) && !c.speedupVsBaseline.significant) ||
            (column == GainColumn && c.gainVsPrevious && !c.gainVsPrevious->significant))
            return QColor(0x90, 0x90, 0x90);
    }
    return {};
}

} // namespace cnp::wb
