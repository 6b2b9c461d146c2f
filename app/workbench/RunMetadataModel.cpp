#include "RunMetadataModel.h"

#include <QFont>

namespace cnp::wb {

RunMetadataModel::RunMetadataModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunMetadataModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void RunMetadataModel::setRun(const RunRecord& run) {
    const RunInfo& i = run.info;
    auto q = [](const std::string& s) { return s.empty() ? QStringLiteral("—") : QString::fromStdString(s); };
    std::vector<Row> rows;
    auto section = [&](const QString& s) { rows.push_back({s, {}, true}); };
    auto add = [&](const QString& f, const QString& v) { rows.push_back({f, v, false}); };
    section(tr("Run"));
    add(tr("Name"), q(i.name));
    add(tr("Configuration"), q(i.config));
    add(tr("Repeat"), QString::number(i.repeat));
    add(tr("Source format"), q(i.sourceFormat));
    add(tr("Data"), i.synthetic ? tr("synthetic (generated, not measured)") : tr("real measurement"));
    add(tr("Ingested"), q(run.createdAt));
    add(tr("Ranks"), QString::number(run.rankCount));
    add(tr("World size"), QString::number(i.worldSize));
    add(tr("Kernels"), QString::number(run.kernelCount));
    add(tr("Events"), QString::number(run.eventCount));
    add(tr("Tokens per step"),
        i.tokensPerStep > 0 ? QString::number(i.tokensPerStep, 'f', 0) : tr("unknown"));
    add(tr("Model FLOPs per step"),
        i.flopsPerStep > 0 ? QString::number(i.flopsPerStep, 'g', 4) : tr("unknown"));
    add(tr("Peak FLOP/s per GPU"), i.peakFlops > 0 ? QString::number(i.peakFlops, 'g', 4) : tr("unknown"));
    section(tr("System"));
    add(tr("Host"), q(i.host));
    QStringList gpus;
    for (const auto& g : i.gpuModels)
        gpus << QString::fromStdString(g);
    add(tr("GPUs"), gpus.isEmpty() ? QStringLiteral("—") : gpus.join(QStringLiteral(", ")));
    add(tr("Driver"), q(i.driverVersion));
    add(tr("CUDA"), q(i.cudaVersion));
    add(tr("CUPTI"), q(i.cuptiVersion));
    add(tr("Container image"), q(i.containerImage));
    section(tr("Sources"));
    for (size_t k = 0; k < i.sourceFiles.size(); ++k)
        add(tr("File %1").arg(k + 1), QString::fromStdString(i.sourceFiles[k]));
    section(tr("Skipped events"));
    add(tr("Count"), QString::number(i.skipped.count));
    if (i.skipped.count > 0) {
        add(tr("First at"), QString::number(i.skipped.firstOffset));
        add(tr("First reason"), q(i.skipped.firstReason));
    }
    section(tr("Environment (allow-listed)"));
    if (i.env.empty())
        add(tr("(none recorded)"), {});
    for (const auto& [k, v] : i.env)
        add(QString::fromStdString(k), QString::fromStdString(v));
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int RunMetadataModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}
int RunMetadataModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant RunMetadataModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& r = rows_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return index.column() == 0 ? r.field : r.value;
    case Qt::FontRole:
        if (r.section) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case IsSectionRole:
        return r.section;
    default:
        return {};
    }
}

QVariant RunMetadataModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Field") : tr("Value");
}

QString RunMetadataModel::valueOf(const QString& field) const {
    for (const Row& r : rows_)
        if (!r.section && r.field == field)
            return r.value;
    return {};
}

} // namespace cnp::wb
