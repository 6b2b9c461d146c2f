#include "KernelOccurrencesModel.h"

#include "UnitFormat.h"
#include "store/KernelOccurrenceQueries.h"

namespace cnp::wb {

KernelOccurrencesModel::KernelOccurrencesModel(QObject* parent) : RowTableModel(parent, Qt::UserRole) {
    using R = const KernelOccurrence&;
    auto dims = [](const std::int32_t* d) {
        return QVariant(QStringLiteral("%1×%2×%3").arg(d[0]).arg(d[1]).arg(d[2]));
    };
    const auto N = kNumberAlignment;
    setColumns({{tr("Rank"), [](R o) { return QVariant(o.rank); }, N},
                {tr("Device"), [](R o) { return QVariant(o.device); }, N},
                {tr("Stream"), [](R o) { return QVariant(qlonglong(o.stream)); }, N},
                {tr("Start since run start"),
                 [this](R o) { return QVariant(UnitFormat::duration(double(o.start - origin_))); }, N,
                 [this](R o) { return QVariant(qlonglong(o.start - origin_)); },
                 [this](R o) {
                     return QVariant(
                         QStringLiteral("%1 after the run start (absolute %2 ns); double-click to show it on "
                                        "the timeline")
                             .arg(UnitFormat::durationExact(o.start - origin_))
                             .arg(o.start));
                 }},
                {tr("Duration"),
                 [](R o) { return QVariant(UnitFormat::duration(double(o.end - o.start))); },
                 N,
                 {},
                 [](R o) { return QVariant(UnitFormat::durationExact(o.end - o.start)); }},
                {tr("Grid"), [=](R o) { return dims(o.grid); }},
                {tr("Block"), [=](R o) { return dims(o.block); }},
                {tr("Registers"), [](R o) { return QVariant(o.registers); }, N},
                {tr("Shared memory"),
                 [](R o) { return QVariant(UnitFormat::bytes(double(o.staticSmem + o.dynamicSmem))); },
                 N,
                 {},
                 [](R o) {
                     return QVariant(
                         QStringLiteral("%1 B static + %2 B dynamic").arg(o.staticSmem).arg(o.dynamicSmem));
                 }}},
               ColumnCount);
}

std::vector<KernelOccurrence> KernelOccurrencesModel::readOccurrences(const Workspace& ws, RunId runId,
                                                                      const std::string& kernelName,
                                                                      std::int32_t rank, std::size_t limit) {
    return KernelOccurrenceQueries(ws).occurrences(runId, kernelName, rank, limit);
}

void KernelOccurrencesModel::setOccurrences(std::vector<KernelOccurrence> rows, Ns runStart) {
    beginResetModel();
    mutableRows() = std::move(rows);
    origin_ = runStart;
    endResetModel();
}

} // namespace cnp::wb
