#include "AblationTableModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include <QColor>

#include <cstdlib>

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
          N},
         {tr("Predicted"),
          [this](R c) {
              const StepPrediction* p = predictionOf(c.config);
              return QVariant(p ? QStringLiteral("%1 (%2%3)")
                                      .arg(UnitFormat::duration(double(p->predictedStepNs)),
                                           p->error >= 0 ? QStringLiteral("+") : QString(),
                                           UnitFormat::percent(p->error))
                                : QStringLiteral("—"));
          },
          N,
          [this](R c) {
              const StepPrediction* p = predictionOf(c.config);
              return p ? QVariant(qint64(p->predictedStepNs)) : QVariant();
          },
          [this](R c) {
              const StepPrediction* p = predictionOf(c.config);
              if (!p)
                  return QVariant(
                      tr("No expectation stated for this configuration (plan expect:, or cnp edit "
                         "--expect)"));
              return QVariant(
                  tr("Expected: %1\nPredicted from %2's trace (run %3): %4 × its median step %5 = %6\n"
                     "Measured: %7 (the prediction is %8 off)")
                      .arg(QString::fromStdString(p->scenario), QString::fromStdString(p->from),
                           QString::fromStdString(p->fromRun), UnitFormat::ratio(p->ratio),
                           UnitFormat::duration(double(p->fromStepNs)),
                           UnitFormat::duration(double(p->predictedStepNs)),
                           UnitFormat::duration(double(p->measuredStepNs)), UnitFormat::percent(p->error)));
          }},
         {tr("Biggest miss"),
          [this](R c) {
              const StepPrediction* p = predictionOf(c.config);
              if (!p)
                  return QVariant(QStringLiteral("—"));
              auto sign = [](Ns ns) {
                  return (ns < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
                         UnitFormat::duration(double(ns < 0 ? -ns : ns));
              };
              return QVariant(tr("%1: predicted %2, measured %3")
                                  .arg(QString::fromStdString(p->missCategory), sign(p->missPredictedNs),
                                       sign(p->missMeasuredNs)));
          },
          Qt::AlignLeft | Qt::AlignVCenter,
          [this](R c) {
              const StepPrediction* p = predictionOf(c.config);
              return p ? QVariant(qint64(std::abs(p->missMeasuredNs - p->missPredictedNs))) : QVariant();
          },
          [](R) {
              return QVariant(
                  tr("The category whose predicted change per step differs most from the measured "
                     "one (the attribution vs the previous configuration)"));
          }}},
        ColumnCount);
}

void AblationTableModel::setResult(const AblationResult& result, const std::vector<std::string>& plan) {
    beginResetModel();
    mutableRows() = result.configs;
    predictions_.clear();
    baseline_ = result.baseline;
    plan_ = plan;
    endResetModel();
}

void AblationTableModel::setPredictions(const AblationPredictions& predictions) {
    predictions_ = predictions.steps;
    if (rowCount() > 0)
        emit dataChanged(index(0, PredictedColumn), index(rowCount() - 1, MissColumn));
}

const StepPrediction* AblationTableModel::predictionOf(const std::string& config) const {
    for (const StepPrediction& p : predictions_)
        if (p.to == config)
            return &p;
    return nullptr;
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
