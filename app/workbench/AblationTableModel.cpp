#include "AblationTableModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include <QColor>

namespace cnp::wb {

AblationTableModel::AblationTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void AblationTableModel::setResult(const AblationResult& result, const std::vector<std::string>& plan) {
    beginResetModel();
    result_ = result;
    plan_ = plan;
    endResetModel();
}

int AblationTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(result_.configs.size());
}
int AblationTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString AblationTableModel::ratioText(const RatioWithCi& r) {
    if (!r.hasCi)
        return UnitFormat::ratio(r.value) + QStringLiteral(" (too few steps for a CI)");
    QString s = QStringLiteral("%1 [%2, %3]")
                    .arg(UnitFormat::ratio(r.value), QString::number(r.ci95.lo, 'f', 3),
                         QString::number(r.ci95.hi, 'f', 3));
    if (!r.significant)
        s += QStringLiteral(" n.s.");
    return s;
}

QVariant AblationTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const AblationConfig& c = result_.configs[size_t(index.row())];
    const bool isBaseline = c.config == result_.baseline;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ConfigColumn:
            return QString::fromStdString(c.config) +
                   (isBaseline ? QStringLiteral(" (baseline)") : QString());
        case RunsColumn:
            return int(c.runs.size());
        case StepsColumn:
            return int(c.stepTimesNs.size());
        case MedianColumn:
            return UnitFormat::duration(double(c.medianStepNs));
        case CiColumn:
            if (!c.hasCi)
                return tr("too few steps");
            return QStringLiteral("%1 – %2").arg(UnitFormat::duration(double(c.ciLoNs)),
                                                 UnitFormat::duration(double(c.ciHiNs)));
        case LogColumn:
            return c.log && c.log->medianStepNs > 0 ? UnitFormat::duration(double(c.log->medianStepNs))
                                                    : QStringLiteral("—");
        case ThroughputColumn:
            return UnitFormat::rate(c.throughput, QString::fromStdString(c.throughputUnit));
        case MfuColumn:
            return c.mfu ? UnitFormat::percent(*c.mfu) : QStringLiteral("—");
        case SpeedupColumn:
            return isBaseline ? QStringLiteral("1.000× (baseline)") : ratioText(c.speedupVsBaseline);
        case GainColumn:
            return c.gainVsPrevious ? ratioText(*c.gainVsPrevious) : QStringLiteral("—");
        case MeanColumn:
            return UnitFormat::duration(double(c.meanStepNs));
        case ComputeColumn:
            return UnitFormat::duration(double(c.breakdownMeanNs.compute));
        case CommunicationColumn:
            return UnitFormat::duration(double(c.breakdownMeanNs.communication));
        case OverlapColumn:
            return UnitFormat::duration(double(c.breakdownMeanNs.overlap));
        case MemoryColumn:
            return UnitFormat::duration(double(c.breakdownMeanNs.memory));
        case IdleColumn:
            return UnitFormat::duration(double(c.breakdownMeanNs.idle));
        default:
            return {};
        }
    }
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case ConfigColumn:
            return QString::fromStdString(c.config);
        case RunsColumn:
            return int(c.runs.size());
        case StepsColumn:
            return int(c.stepTimesNs.size());
        case MedianColumn:
            return qint64(c.medianStepNs);
        case CiColumn:
            return qint64(c.ciLoNs);
        case ThroughputColumn:
            return c.throughput;
        case MfuColumn:
            return c.mfu ? QVariant(*c.mfu) : QVariant();
        case SpeedupColumn:
            return c.speedupVsBaseline.value;
        case GainColumn:
            return c.gainVsPrevious ? QVariant(c.gainVsPrevious->value) : QVariant();
        case MeanColumn:
            return qint64(c.meanStepNs);
        case ComputeColumn:
            return qint64(c.breakdownMeanNs.compute);
        case CommunicationColumn:
            return qint64(c.breakdownMeanNs.communication);
        case OverlapColumn:
            return qint64(c.breakdownMeanNs.overlap);
        case MemoryColumn:
            return qint64(c.breakdownMeanNs.memory);
        case IdleColumn:
            return qint64(c.breakdownMeanNs.idle);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case MedianColumn:
            return UnitFormat::durationExact(c.medianStepNs);
        case CiColumn:
            if (!c.hasCi)
                return QString::fromStdString(c.ciMissingReason);
            return QStringLiteral("95% bootstrap CI of the median: %1 – %2")
                .arg(UnitFormat::durationExact(c.ciLoNs), UnitFormat::durationExact(c.ciHiNs));
        case MeanColumn:
            return UnitFormat::durationExact(c.meanStepNs);
        case ComputeColumn:
            return UnitFormat::durationExact(c.breakdownMeanNs.compute);
        case CommunicationColumn:
            return UnitFormat::durationExact(c.breakdownMeanNs.communication);
        case OverlapColumn:
            return UnitFormat::durationExact(c.breakdownMeanNs.overlap);
        case MemoryColumn:
            return UnitFormat::durationExact(c.breakdownMeanNs.memory);
        case IdleColumn:
            return UnitFormat::durationExact(c.breakdownMeanNs.idle);
        case SpeedupColumn:
        case GainColumn:
            return QStringLiteral("Significant only when the 95% bootstrap CI of the ratio excludes 1 (n.s. "
                                  "= not significant)");
        case RunsColumn: {
            QStringList runs;
            for (const auto& r : c.runs)
                runs << QString::fromStdString(r);
            return runs.join(QStringLiteral(", "));
        }
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && index.column() == ConfigColumn)
        return ChartPalette::configurationColor(QString::fromStdString(c.config), plan_);
    if (role == Qt::ForegroundRole) {
        if ((index.column() == SpeedupColumn && !isBaseline && !c.speedupVsBaseline.significant) ||
            (index.column() == GainColumn && c.gainVsPrevious && !c.gainVsPrevious->significant))
            return QColor(0x90, 0x90, 0x90);
    }
    if (role == Qt::TextAlignmentRole && index.column() != ConfigColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant AblationTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Configuration",    "Runs",       "Steps",   "Median step",
                                  "95% CI",           "Throughput", "MFU",     "Speedup vs baseline",
                                  "Gain vs previous", "Mean step",  "Compute", "Exposed comm.",
                                  "Overlap",          "Memory",     "Idle",    "Log step"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace cnp::wb
