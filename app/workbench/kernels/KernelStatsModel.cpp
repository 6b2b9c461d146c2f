#include "KernelStatsModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include <cmath>

namespace cnp::wb {

KernelStatsModel::KernelStatsModel(QObject* parent) : RowTableModel(parent, SortRole) {
    using R = const KernelStatRow&;
    auto text = [](const std::string& s) { return QVariant(QString::fromStdString(s)); };
    auto dur = [](double ns) { return QVariant(UnitFormat::duration(ns)); };
    auto exact = [](std::int64_t ns) { return QVariant(UnitFormat::durationExact(ns)); };
    const auto N = kNumberAlignment;
    setColumns(
        {{tr("Kernel"), [=](R r) { return text(r.name); }, Qt::AlignLeft | Qt::AlignVCenter,
          [=](R r) { return text(r.name); }, [=](R r) { return text(r.name); }},
         {tr("Category"), [=](R r) { return text(r.category); }, Qt::AlignLeft | Qt::AlignVCenter,
          [=](R r) { return text(r.category); }},
         {tr("Count"), [](R r) { return QVariant(qlonglong(r.count)); }, N,
          [](R r) { return QVariant(qlonglong(r.count)); }},
         {tr("Total"), [=](R r) { return dur(double(r.totalNs)); }, N,
          [](R r) { return QVariant(qlonglong(r.totalNs)); }, [=](R r) { return exact(r.totalNs); }},
         {tr("% time"), [](R r) { return QVariant(UnitFormat::percent(r.percent / 100.0)); }, N,
          [](R r) { return QVariant(r.percent); }},
         {tr("Mean"), [=](R r) { return dur(r.meanNs); }, N, [](R r) { return QVariant(r.meanNs); },
          [=](R r) { return exact(std::llround(r.meanNs)); }},
         {tr("Median"), [=](R r) { return dur(r.medianNs); }, N, [](R r) { return QVariant(r.medianNs); },
          [=](R r) { return exact(std::llround(r.medianNs)); }},
         {tr("Min"), [=](R r) { return dur(double(r.minNs)); }, N,
          [](R r) { return QVariant(qlonglong(r.minNs)); }, [=](R r) { return exact(r.minNs); }},
         {tr("Max"), [=](R r) { return dur(double(r.maxNs)); }, N,
          [](R r) { return QVariant(qlonglong(r.maxNs)); }, [=](R r) { return exact(r.maxNs); }},
         {tr("Std dev"), [=](R r) { return dur(r.stddevNs); }, N, [](R r) { return QVariant(r.stddevNs); }}},
        ColumnCount);
}

void KernelStatsModel::setRows(std::vector<KernelStatRow> rows) {
    setRowsReset(std::move(rows));
}

QVariant KernelStatsModel::extraData(const KernelStatRow& r, int column, int role) const {
    if (role == Qt::DecorationRole && column == CategoryColumn)
        return ChartPalette::categoryColor(QString::fromStdString(r.category));
    return {};
}

} // namespace cnp::wb
