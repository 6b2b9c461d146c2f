#include "RunMetadataModel.h"

#include "RunKind.h"
#include "UnitFormat.h"

#include <QFont>

#include <cmath>

namespace cnp::wb {

RunMetadataModel::RunMetadataModel(QObject* parent) : RowTableModel(parent) {
    using R = const RunMetadataRow&;
    auto field = [](R r) { return QVariant(r.field); };
    auto value = [](R r) { return QVariant(r.value); };
    setColumns({{tr("Field"), field, Qt::AlignLeft | Qt::AlignVCenter, {}, field},
                {tr("Value"), value, Qt::AlignLeft | Qt::AlignVCenter, {}, value}},
               2);
}

void RunMetadataModel::clear() {
    setRowsReset({});
}

void RunMetadataModel::setRun(const RunRecord& run) {
    const RunInfo& i = run.info;
    auto q = [](const std::string& s) { return s.empty() ? QStringLiteral("—") : QString::fromStdString(s); };
    std::vector<RunMetadataRow> rows;
    auto section = [&](const QString& s) { rows.push_back({s, {}, true}); };
    auto add = [&](const QString& f, const QString& v) { rows.push_back({f, v, false}); };
    section(tr("Run"));
    add(tr("Name"), q(i.name));
    add(tr("Configuration"), q(i.config));
    add(tr("Repeat"), QString::number(i.repeat));
    add(tr("Source format"), q(i.sourceFormat));
    add(tr("Data"), runKindPhrase(runKindOf(i)));
    add(tr("Ingested"), q(run.createdAt));
    add(tr("Ranks"), QString::number(run.rankCount));
    add(tr("World size"), QString::number(i.worldSize));
    add(tr("Kernels"), UnitFormat::integer(run.kernelCount));
    add(tr("Events"), UnitFormat::integer(run.eventCount));
    add(tr("Tokens per step"),
        i.tokensPerStep > 0 ? UnitFormat::integer(std::llround(i.tokensPerStep)) : tr("unknown"));
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
    add(tr("Count"), UnitFormat::integer(i.skipped.count));
    if (i.skipped.count > 0) {
        add(tr("First at"), QString::number(i.skipped.firstOffset));
        add(tr("First reason"), q(i.skipped.firstReason));
    }
    section(tr("Environment (allow-listed)"));
    if (i.env.empty())
        add(tr("(none recorded)"), {});
    for (const auto& [k, v] : i.env)
        add(QString::fromStdString(k), QString::fromStdString(v));
    setRowsReset(std::move(rows));
}

QVariant RunMetadataModel::extraData(const RunMetadataRow& r, int, int role) const {
    if (role == IsSectionRole)
        return r.section;
    if (role == Qt::FontRole && r.section) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QString RunMetadataModel::valueOf(const QString& field) const {
    for (const RunMetadataRow& r : rows())
        if (!r.section && r.field == field)
            return r.value;
    return {};
}

} // namespace cnp::wb
